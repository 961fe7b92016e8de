package dev.payonce.refund.web;

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
import org.springframework.util.MultiValueMap;

import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.web.IdempotencyHeaders;
import dev.payonce.payment.web.ProblemExamples;
import dev.payonce.refund.RefundCommand;
import dev.payonce.refund.RefundList;
import dev.payonce.refund.RefundReceipt;
import dev.payonce.web.ApiDocumentation;

/**
 * The refunds API as the OpenAPI document shows it (docs/design.md section 8): operation
 * ids, parameters, every status with its problem types as examples, and typed headers.
 * The problems every operation shares are added by {@link ApiDocumentation}, and what
 * every operation that moves money shares (the Idempotency-Key header, replays, the
 * idempotency problems) by the payments API's {@code KeyedOperationDocumentation}.
 */
@Tag(name = "Refunds",
		description = "Refunds of a payment of the calling client, each made at most once per "
				+ "Idempotency-Key, never more in total than the payment's amount")
@SecurityRequirement(name = ApiDocumentation.API_KEY)
interface RefundOperations {

	@Operation(operationId = "createRefund", summary = "Refund a payment, at most once per Idempotency-Key",
			description = "Reserves the amount on the payment (all that remains when amount is omitted) in the claim "
					+ "transaction, refunds it at the provider with a provider idempotency key derived from the refund "
					+ "id, and stores the answer. Refunded plus in-flight refunds never exceed the payment's amount. "
					+ "The body is optional; when sent it is application/json. Without a body send no "
					+ "Content-Type either: a Content-Type with an empty body is 400 invalid-request, never a full refund.",
			parameters = {
					@Parameter(name = "id", in = ParameterIn.PATH, required = true,
							description = "The payment id, a UUID in canonical lower-case form",
							schema = @Schema(type = "string", format = "uuid")),
					@Parameter(name = IdempotencyHeaders.IDEMPOTENCY_KEY, in = ParameterIn.HEADER,
							example = "refund-order-123-1") },
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = RefundRequestDocument.class))),
			responses = {
					@ApiResponse(responseCode = "201",
							description = "Refunded: the refund. A replay carries Idempotent-Replayed: true.",
							headers = @Header(name = HttpHeaders.LOCATION, required = true,
									description = "/payments/{id}/refunds/{refundId}",
									schema = @Schema(type = "string", format = "uri-reference")),
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = RefundReceipt.class))),
					@ApiResponse(responseCode = "400",
							description = "The key is missing or malformed, the body is invalid, or the provider cannot take the amount in its currency; nothing stored",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "amount-not-supported",
											value = RefundProblemExamples.REFUND_AMOUNT_NOT_SUPPORTED))),
					@ApiResponse(responseCode = "402",
							description = "Declined by the provider, or given up by reconciliation; the amount is "
									+ "refundable again; stored and replayed",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = {
											@ExampleObject(name = "refund-declined",
													value = RefundProblemExamples.REFUND_DECLINED),
											@ExampleObject(name = "refund-failed",
													value = RefundProblemExamples.REFUND_FAILED) })),
					@ApiResponse(responseCode = "404",
							description = "No such payment for this client (another client's payment looks the same); "
									+ "nothing stored",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "payment-not-found",
											value = ProblemExamples.NOT_FOUND))),
					@ApiResponse(responseCode = "409",
							description = "The payment has no captured money (it is neither SUCCEEDED nor a manual payment "
									+ "with captures) or has less left than asked (nothing stored: "
									+ "the same request may succeed later), or a request with this key is still in "
									+ "progress (Retry-After; retry with the same key)",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = {
											@ExampleObject(name = "payment-not-refundable",
													value = RefundProblemExamples.NOT_REFUNDABLE),
											@ExampleObject(name = "refund-exceeds-refundable",
													value = RefundProblemExamples.REFUND_EXCEEDS) })),
					@ApiResponse(responseCode = "503",
							description = "The provider refused or its outcome is unknown (the refund stays PENDING with "
									+ "its amount reserved), or the database is unreachable; a retry with the same key "
									+ "resolves it",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = {
											@ExampleObject(name = "refund-provider-unavailable",
													value = RefundProblemExamples.REFUND_PROVIDER_UNAVAILABLE),
											@ExampleObject(name = "refund-outcome-unknown",
													value = RefundProblemExamples.REFUND_OUTCOME_UNKNOWN) })) })
	ResponseEntity<byte[]> create(@Parameter(hidden = true) IdempotencyKey key,
			@Parameter(hidden = true) RefundCommand command);

	@Operation(operationId = "listRefunds", summary = "List a payment's refunds, a page at a time, oldest first",
			description = "The payment's refunds, whatever their status, oldest first with ties broken by id, "
					+ "in Stripe's list shape: at most limit refunds, and has_more when more follow. The next page "
					+ "starts after the last refund's id (starting_after). Any other query parameter, or one sent "
					+ "twice, is refused. Another client's payment answers 404, exactly like an unknown id.",
			parameters = {
					@Parameter(name = RefundListParameters.LIMIT, in = ParameterIn.QUERY,
							description = "The most refunds on the page, 1 to 100",
							schema = @Schema(type = "integer", minimum = "1", maximum = "100", defaultValue = "10")),
					@Parameter(name = RefundListParameters.STARTING_AFTER, in = ParameterIn.QUERY,
							description = "The id of the last refund of the previous page; absent for the first page",
							schema = @Schema(type = "string", format = "uuid")) },
			responses = {
					@ApiResponse(responseCode = "200", description = "One page of the refunds, oldest first",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = RefundList.class))),
					@ApiResponse(responseCode = "400",
							description = "A bad limit, a starting_after that names no refund of this payment, an "
									+ "unknown or repeated parameter",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "invalid-request",
											value = RefundProblemExamples.INVALID_LIST_PARAMETERS))),
					@ApiResponse(responseCode = "404", description = "No such payment for this client",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "payment-not-found",
											value = ProblemExamples.NOT_FOUND))),
					@ApiResponse(responseCode = "429",
							description = "Over the client's request rate, or over its concurrent reads",
							headers = @Header(name = HttpHeaders.RETRY_AFTER, required = true,
									description = "Seconds to wait before retrying",
									schema = @Schema(type = "integer", minimum = "1")),
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "rate-limit-exceeded",
											value = ProblemExamples.RATE_LIMITED))) })
	ResponseEntity<byte[]> list(
			@Parameter(description = "The payment id, a UUID in canonical lower-case form",
					schema = @Schema(type = "string", format = "uuid")) String id,
			@Parameter(hidden = true) MultiValueMap<String, String> query);

	@Operation(operationId = "getRefund", summary = "Read one refund of a payment",
			description = "The refund as it stands now. Another client's refund answers 404, exactly like an unknown id.",
			responses = {
					@ApiResponse(responseCode = "200", description = "The refund",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = RefundReceipt.class))),
					@ApiResponse(responseCode = "404", description = "No such refund of this payment for this client",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "refund-not-found",
											value = RefundProblemExamples.REFUND_NOT_FOUND))),
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
			@Parameter(description = "The refund id, a UUID in canonical lower-case form",
					schema = @Schema(type = "string", format = "uuid")) String refundId);

}
