package dev.payonce.capture.web;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import dev.payonce.capture.VoidCommand;
import dev.payonce.capture.VoidReceipt;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.web.IdempotencyHeaders;
import dev.payonce.payment.web.PaymentOperations;
import dev.payonce.payment.web.ProblemExamples;
import dev.payonce.web.ApiDocumentation;

/**
 * The void API as the OpenAPI document shows it (docs/design.md section 15); the shared
 * problems are added by {@link ApiDocumentation}.
 */
@Tag(name = "Voids", description = "Releasing a manual payment's authorization, at most once per Idempotency-Key")
@SecurityRequirement(name = ApiDocumentation.API_KEY)
interface VoidOperations {

	@Operation(operationId = "voidPayment", summary = "Release an authorized payment's hold, at most once per key",
			description = "Holds the AUTHORIZED payment for the void in the claim (refused while a capture is in "
					+ "flight), releases what no capture took at the provider, and stores the answer: the payment "
					+ "is then VOIDED and no capture succeeds. No body.",
			parameters = {
					@Parameter(name = "id", in = ParameterIn.PATH, required = true,
							description = "The payment id, a UUID in canonical lower-case form",
							schema = @Schema(type = "string", format = "uuid")),
					@Parameter(name = IdempotencyHeaders.IDEMPOTENCY_KEY, in = ParameterIn.HEADER, required = true,
							description = "Names this void, exactly as for a payment; scoped to the calling client.",
							schema = @Schema(type = "string", minLength = 1, maxLength = 512,
									pattern = PaymentOperations.KEY_PATTERN),
							example = "void-order-123") },
			responses = {
					@ApiResponse(responseCode = "200",
							description = "Voided: the void. A replay carries Idempotent-Replayed: true.",
							headers = @Header(name = IdempotencyHeaders.IDEMPOTENT_REPLAYED,
									description = "Present, as true, only on a stored answer replayed",
									schema = @Schema(type = "string", allowableValues = "true")),
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = VoidReceipt.class))),
					@ApiResponse(responseCode = "400",
							description = "The key is missing or malformed, or a body was sent; nothing stored",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = {
											@ExampleObject(name = "idempotency-key-missing",
													value = ProblemExamples.KEY_MISSING),
											@ExampleObject(name = "invalid-request",
													value = ProblemExamples.INVALID_REQUEST) })),
					@ApiResponse(responseCode = "402",
							description = "Declined by the provider (void-declined) or given up by reconciliation "
									+ "(void-failed); stored and replayed",
							headers = @Header(name = IdempotencyHeaders.IDEMPOTENT_REPLAYED,
									description = "Present, as true, only on a stored answer replayed",
									schema = @Schema(type = "string", allowableValues = "true")),
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE)),
					@ApiResponse(responseCode = "403", description = "The API key is of the other mode; nothing stored",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "api-key-mode-mismatch",
											value = ProblemExamples.KEY_MODE_MISMATCH))),
					@ApiResponse(responseCode = "404", description = "No such payment for this client; nothing stored",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "payment-not-found",
											value = ProblemExamples.NOT_FOUND))),
					@ApiResponse(responseCode = "409",
							description = "The payment is not voidable (payment-not-voidable: not AUTHORIZED, or a "
									+ "capture or another void holds it): nothing stored; or a request with this key "
									+ "is still in progress (Retry-After)",
							headers = @Header(name = HttpHeaders.RETRY_AFTER,
									description = "Seconds to wait before retrying with the same Idempotency-Key "
											+ "(idempotency-request-in-progress only)",
									schema = @Schema(type = "integer", minimum = "1")),
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "idempotency-request-in-progress",
											value = ProblemExamples.IN_PROGRESS))),
					@ApiResponse(responseCode = "422",
							description = "The key was used with a different request, or names another operation",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "idempotency-key-reused",
											value = ProblemExamples.KEY_REUSED))),
					@ApiResponse(responseCode = "429",
							description = "Over the client's request rate, or over its live keys; nothing stored",
							headers = @Header(name = HttpHeaders.RETRY_AFTER, required = true,
									description = "Seconds to wait before retrying",
									schema = @Schema(type = "integer", minimum = "1")),
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "rate-limit-exceeded",
											value = ProblemExamples.RATE_LIMITED))),
					@ApiResponse(responseCode = "503",
							description = "The provider refused (void-provider-unavailable) or its outcome is unknown "
									+ "(void-outcome-unknown): the void keeps holding the payment; a retry with the "
									+ "same key resolves it",
							headers = @Header(name = HttpHeaders.RETRY_AFTER, required = true,
									description = "Seconds to wait before retrying with the same Idempotency-Key",
									schema = @Schema(type = "integer", minimum = "1")),
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE)) })
	ResponseEntity<byte[]> create(@Parameter(hidden = true) IdempotencyKey key,
			@Parameter(hidden = true) VoidCommand command);

}
