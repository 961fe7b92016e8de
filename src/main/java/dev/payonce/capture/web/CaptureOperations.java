package dev.payonce.capture.web;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import dev.payonce.capture.CaptureCommand;
import dev.payonce.capture.CaptureReceipt;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.web.IdempotencyHeaders;
import dev.payonce.payment.web.ProblemExamples;
import dev.payonce.web.ApiDocumentation;

/**
 * The captures API as the OpenAPI document shows it (docs/design.md section 15):
 * operation ids, parameters, every status with its problem types, and typed headers. The
 * problems every operation shares are added by {@link ApiDocumentation}, and what every
 * operation that moves money shares (the Idempotency-Key header, replays, the idempotency
 * problems) by the payments API's {@code KeyedOperationDocumentation}.
 */
@Tag(name = "Captures",
		description = "Captures of a manual payment's authorization, each made at most once per Idempotency-Key, "
				+ "never more in total than the authorized amount")
@SecurityRequirement(name = ApiDocumentation.API_KEY)
interface CaptureOperations {

	@Operation(operationId = "createCapture",
			summary = "Capture an authorized payment, at most once per Idempotency-Key",
			description = "Reserves the amount on the AUTHORIZED payment (all that remains when amount is omitted) in "
					+ "the claim, captures it at the provider with a provider idempotency key derived from the "
					+ "capture id, and stores the answer. Several partial captures may follow each other; captured "
					+ "plus in-flight captures never exceed the authorized amount. The body is optional; when sent "
					+ "it is application/json, and without a body send no Content-Type either.",
			parameters = {
					@Parameter(name = "id", in = ParameterIn.PATH, required = true,
							description = "The payment id, a UUID in canonical lower-case form",
							schema = @Schema(type = "string", format = "uuid")),
					@Parameter(name = IdempotencyHeaders.IDEMPOTENCY_KEY, in = ParameterIn.HEADER,
							example = "capture-order-123-1") },
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = CaptureRequestDocument.class))),
			responses = {
					@ApiResponse(responseCode = "201",
							description = "Captured: the capture. A replay carries Idempotent-Replayed: true.",
							headers = @Header(name = HttpHeaders.LOCATION, required = true,
									description = "/payments/{id}/captures/{captureId}",
									schema = @Schema(type = "string", format = "uri-reference")),
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = CaptureReceipt.class))),
					@ApiResponse(responseCode = "402",
							description = "Declined by the provider (capture-declined), or given up by reconciliation "
									+ "(capture-failed); the amount is capturable again; stored and replayed",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE)),
					@ApiResponse(responseCode = "404",
							description = "No such payment for this client (another client's payment looks the same); "
									+ "nothing stored",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "payment-not-found",
											value = ProblemExamples.NOT_FOUND))),
					@ApiResponse(responseCode = "409",
							description = "The payment is not capturable (payment-not-capturable: automatic, declined, "
									+ "voided, captured in full, or a void in flight), its authorization lapsed "
									+ "(authorization-expired), or it has less left than asked "
									+ "(capture-exceeds-capturable): nothing stored; or a request with this key is "
									+ "still in progress (Retry-After; retry with the same key)",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE)),
					@ApiResponse(responseCode = "503",
							description = "The provider refused (capture-provider-unavailable) or its outcome is "
									+ "unknown (capture-outcome-unknown): the capture stays PENDING with its amount "
									+ "reserved; or the database is unreachable; a retry with the same key resolves it",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE)) })
	ResponseEntity<byte[]> create(@Parameter(hidden = true) IdempotencyKey key,
			@Parameter(hidden = true) CaptureCommand command);

	@Operation(operationId = "listCaptures", summary = "List a payment's captures, oldest first",
			description = "Every capture of the payment, whatever its status, oldest first with ties broken by id. "
					+ "Another client's payment answers 404, exactly like an unknown id.",
			responses = {
					@ApiResponse(responseCode = "200", description = "The captures, oldest first",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									array = @ArraySchema(schema = @Schema(implementation = CaptureReceipt.class)))),
					@ApiResponse(responseCode = "404", description = "No such payment for this client",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "payment-not-found",
											value = ProblemExamples.NOT_FOUND))),
					@ApiResponse(responseCode = "429", description = "Over the client's request rate",
							headers = @Header(name = HttpHeaders.RETRY_AFTER, required = true,
									description = "Seconds to wait before retrying",
									schema = @Schema(type = "integer", minimum = "1")),
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "rate-limit-exceeded",
											value = ProblemExamples.RATE_LIMITED))) })
	ResponseEntity<byte[]> list(@Parameter(description = "The payment id, a UUID in canonical lower-case form",
			schema = @Schema(type = "string", format = "uuid")) String id);

	@Operation(operationId = "getCapture", summary = "Read one capture of a payment",
			description = "The capture as it stands now. Another client's capture answers 404, exactly like an "
					+ "unknown id.",
			responses = {
					@ApiResponse(responseCode = "200", description = "The capture",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = CaptureReceipt.class))),
					@ApiResponse(responseCode = "404", description = "No such capture of this payment for this client",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE)),
					@ApiResponse(responseCode = "429", description = "Over the client's request rate",
							headers = @Header(name = HttpHeaders.RETRY_AFTER, required = true,
									description = "Seconds to wait before retrying",
									schema = @Schema(type = "integer", minimum = "1")),
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "rate-limit-exceeded",
											value = ProblemExamples.RATE_LIMITED))) })
	ResponseEntity<byte[]> get(
			@Parameter(description = "The payment id, a UUID in canonical lower-case form",
					schema = @Schema(type = "string", format = "uuid")) String id,
			@Parameter(description = "The capture id, a UUID in canonical lower-case form",
					schema = @Schema(type = "string", format = "uuid")) String captureId);

}
