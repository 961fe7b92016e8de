package dev.payonce.payment.web;

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

import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.web.IdempotencyHeaders;
import dev.payonce.payment.PaymentCommand;
import dev.payonce.payment.PaymentReceipt;
import dev.payonce.web.ApiDocumentation;

/**
 * The payments API as the OpenAPI document shows it: operation ids, parameters, every
 * status with its problem types as examples, and typed headers. The problems every
 * operation shares (401, 403, 413, 415, 500, 503 {@code service-unavailable}) are added
 * by {@link ApiDocumentation}, and what every operation that moves money shares (the
 * {@code Idempotency-Key} header, {@code Idempotent-Replayed}, the idempotency problems,
 * the key mode and the rate limits) by {@link KeyedOperationDocumentation}; a status
 * added to the controller must be added here or there, or
 * {@code ApiDocumentationIntegrationTests} and the validated exchanges of the integration
 * tests fail.
 */
@Tag(name = "Payments", description = "Payments of the calling client, created at most once per Idempotency-Key")
@SecurityRequirement(name = ApiDocumentation.API_KEY)
public interface PaymentOperations {

	/**
	 * The {@code Idempotency-Key} header as ECMA-262 (and Java) pattern: 1-255 visible
	 * ASCII characters, bare (no comma, not starting with a quote) or as an RFC 8941
	 * string.
	 */
	String KEY_PATTERN = "^(?:[!#-+\\--~][!-+\\--~]{0,254}|\"(?:[!#-\\[\\]-~]|\\\\[\"\\\\]){1,255}\")$";

	@Operation(operationId = "createPayment", summary = "Create a payment, at most once per Idempotency-Key",
			description = "Validates the request, claims the Idempotency-Key for the calling client, charges the provider "
					+ "with a provider idempotency key derived from the payment id, and stores the answer. Every retry "
					+ "with the same key and request gets the stored answer back, byte for byte.",
			parameters = @Parameter(name = IdempotencyHeaders.IDEMPOTENCY_KEY, in = ParameterIn.HEADER,
					example = "order-123-attempt-1"),
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = PaymentRequestDocument.class))),
			responses = { @ApiResponse(responseCode = "201",
					description = "Approved: the payment. A replay carries Idempotent-Replayed: true.",
					headers = @Header(name = HttpHeaders.LOCATION, required = true, description = "/payments/{id}",
							schema = @Schema(type = "string", format = "uri-reference")),
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = PaymentReceipt.class))),
					@ApiResponse(responseCode = "400",
							description = "The key is missing or malformed, the body is invalid, or the provider cannot take the amount in its currency; nothing stored",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "amount-not-supported",
											value = ProblemExamples.AMOUNT_NOT_SUPPORTED))),
					@ApiResponse(responseCode = "402",
							description = "Declined by the provider, or given up by reconciliation; stored and replayed",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = {
											@ExampleObject(name = "payment-declined", value = ProblemExamples.DECLINED),
											@ExampleObject(name = "payment-failed", value = ProblemExamples.FAILED) })),
					@ApiResponse(responseCode = "503",
							description = "The provider refused or its outcome is unknown (the payment stays PENDING), or "
									+ "the database is unreachable; a retry with the same key resolves it",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = {
											@ExampleObject(name = "payment-provider-unavailable",
													value = ProblemExamples.PROVIDER_UNAVAILABLE),
											@ExampleObject(name = "payment-outcome-unknown",
													value = ProblemExamples.OUTCOME_UNKNOWN) })) })
	ResponseEntity<byte[]> create(@Parameter(hidden = true) IdempotencyKey key,
			@Parameter(hidden = true) PaymentCommand command);

	@Operation(operationId = "getPayment", summary = "Read a payment of the calling client",
			description = "The payment as it stands now: a PENDING payment shows its final status once a retry or "
					+ "reconciliation settles it. Another client's payment answers 404, exactly like an unknown id.",
			responses = {
					@ApiResponse(responseCode = "200", description = "The payment",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = PaymentReceipt.class))),
					@ApiResponse(responseCode = "404",
							description = "No such payment for this client (another client's payment looks the same)",
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
	ResponseEntity<byte[]> get(@Parameter(description = "The payment id, a UUID in canonical lower-case form",
			schema = @Schema(type = "string", format = "uuid")) String id);

}
