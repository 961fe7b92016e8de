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
import dev.payonce.payment.web.ProblemExamples;
import dev.payonce.web.ApiDocumentation;

/**
 * The void API as the OpenAPI document shows it (docs/design.md section 15); the problems
 * every operation shares are added by {@link ApiDocumentation}, and what every operation
 * that moves money shares by the payments API's {@code KeyedOperationDocumentation}.
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
					@Parameter(name = IdempotencyHeaders.IDEMPOTENCY_KEY, in = ParameterIn.HEADER,
							example = "void-order-123") },
			responses = {
					@ApiResponse(responseCode = "200",
							description = "Voided: the void. A replay carries Idempotent-Replayed: true.",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = VoidReceipt.class))),
					@ApiResponse(responseCode = "400",
							description = "The key is missing or malformed, or a body was sent; nothing stored",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE)),
					@ApiResponse(responseCode = "402",
							description = "Declined by the provider (void-declined) or given up by reconciliation "
									+ "(void-failed); stored and replayed",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE)),
					@ApiResponse(responseCode = "404", description = "No such payment for this client; nothing stored",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "payment-not-found",
											value = ProblemExamples.NOT_FOUND))),
					@ApiResponse(responseCode = "409",
							description = "The payment is not voidable (payment-not-voidable: not AUTHORIZED, or a "
									+ "capture or another void holds it): nothing stored; or a request with this key "
									+ "is still in progress (Retry-After)",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE)),
					@ApiResponse(responseCode = "503",
							description = "The provider refused (void-provider-unavailable) or its outcome is unknown "
									+ "(void-outcome-unknown): the void keeps holding the payment; a retry with the "
									+ "same key resolves it",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE)) })
	ResponseEntity<byte[]> create(@Parameter(hidden = true) IdempotencyKey key,
			@Parameter(hidden = true) VoidCommand command);

}
