package dev.payonce.payment.web;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

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
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.payonce.client.ClientId;
import dev.payonce.client.CurrentClient;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.web.IdempotencyHeaders;
import dev.payonce.idempotency.web.IdempotencyProblems;
import dev.payonce.idempotency.web.StoredResponses;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.RefundCommand;
import dev.payonce.payment.RefundId;
import dev.payonce.payment.RefundOutcome;
import dev.payonce.payment.RefundReceipt;
import dev.payonce.payment.RefundResponses;
import dev.payonce.payment.RefundService;

/**
 * {@code POST /payments/{id}/refunds}, {@code GET /payments/{id}/refunds} and {@code GET
 * /payments/{id}/refunds/{refundId}} (docs/design.md section 8).
 *
 * <p>
 * The key, the payment id's spelling and the body are checked before the claim, so a
 * rejected request stores nothing; refusals that depend on the payment (unknown, not
 * SUCCEEDED, not enough left) are decided in the claim transaction and store nothing
 * either.
 */
@RestController
@RequestMapping("/payments/{id}/refunds")
@Tag(name = "Refunds")
@SecurityRequirement(name = PaymentApiDocumentation.BEARER)
class RefundController {

	private final RefundService refunds;

	private final RefundRequestReader reader;

	private final RefundResponses responses;

	private final CurrentClient currentClient;

	RefundController(RefundService refunds, RefundRequestReader reader, RefundResponses responses,
			CurrentClient currentClient) {
		this.refunds = refunds;
		this.reader = reader;
		this.responses = responses;
		this.currentClient = currentClient;
	}

	@PostMapping
	@Operation(summary = "Refund a payment, at most once per Idempotency-Key",
			description = "Reserves the amount on the payment (all that remains when amount is omitted), refunds it "
					+ "at the provider with a provider idempotency key derived from the refund id, and stores the "
					+ "answer. Refunded plus in-flight refunds never exceed the payment's amount.",
			parameters = @Parameter(name = IdempotencyHeaders.IDEMPOTENCY_KEY, in = ParameterIn.HEADER, required = true,
					description = "Names this refund, as for a payment; scoped to the calling client.",
					schema = @Schema(type = "string", minLength = 1, maxLength = 255)),
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = RefundRequestDocument.class))),
			responses = {
					@ApiResponse(responseCode = "201", description = "Refunded: the refund's receipt",
							headers = { @Header(name = "Location", description = "/payments/{id}/refunds/{refundId}"),
									@Header(name = IdempotencyHeaders.IDEMPOTENT_REPLAYED,
											description = "true when this is a stored response replayed") },
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = RefundReceipt.class))),
					@ApiResponse(responseCode = "400",
							description = "The key is missing or malformed, or the body is invalid; nothing stored",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = {
											@ExampleObject(name = "idempotency-key-missing",
													value = ProblemExamples.KEY_MISSING),
											@ExampleObject(name = "idempotency-key-invalid",
													value = ProblemExamples.KEY_INVALID),
											@ExampleObject(name = "invalid-request",
													value = ProblemExamples.INVALID_REQUEST) })),
					@ApiResponse(responseCode = "401", description = "No or bad credentials",
							headers = @Header(name = "WWW-Authenticate", description = "Bearer realm=\"payonce\""),
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "unauthorized",
											value = ProblemExamples.UNAUTHORIZED))),
					@ApiResponse(responseCode = "402",
							description = "Declined by the provider, or given up by reconciliation; the amount is "
									+ "refundable again; stored and replayed",
							headers = @Header(name = IdempotencyHeaders.IDEMPOTENT_REPLAYED,
									description = "true when replayed"),
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE, examples = {
									@ExampleObject(name = "refund-declined", value = ProblemExamples.REFUND_DECLINED),
									@ExampleObject(name = "refund-failed", value = ProblemExamples.REFUND_FAILED) })),
					@ApiResponse(responseCode = "404",
							description = "No such payment for this client (another client's looks the same)",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "payment-not-found",
											value = ProblemExamples.NOT_FOUND))),
					@ApiResponse(responseCode = "408", description = "The body stalled; nothing stored",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "request-timeout",
											value = ProblemExamples.REQUEST_TIMEOUT))),
					@ApiResponse(responseCode = "409",
							description = "The payment is not SUCCEEDED, the refund asks for more than is left, or a "
									+ "request with this key is still in progress; refusals store nothing",
							headers = @Header(name = "Retry-After",
									description = "seconds to wait (idempotency-request-in-progress only)"),
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = {
											@ExampleObject(name = "payment-not-refundable",
													value = ProblemExamples.NOT_REFUNDABLE),
											@ExampleObject(name = "refund-exceeds-refundable",
													value = ProblemExamples.REFUND_EXCEEDS),
											@ExampleObject(name = "idempotency-request-in-progress",
													value = ProblemExamples.IN_PROGRESS) })),
					@ApiResponse(responseCode = "413", description = "Body over 16 KiB",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "payload-too-large",
											value = ProblemExamples.TOO_LARGE))),
					@ApiResponse(responseCode = "415", description = "A body that is not application/json",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "unsupported-media-type",
											value = ProblemExamples.UNSUPPORTED))),
					@ApiResponse(responseCode = "422",
							description = "The key was used with a different request or names another operation",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "idempotency-key-reused",
											value = ProblemExamples.KEY_REUSED))),
					@ApiResponse(responseCode = "503",
							description = "The provider refused or its outcome is unknown; the refund stays PENDING "
									+ "with its amount reserved, and a retry with the same key resolves it",
							headers = @Header(name = "Retry-After", description = "seconds to wait before retrying"),
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = {
											@ExampleObject(name = "refund-provider-unavailable",
													value = ProblemExamples.REFUND_PROVIDER_UNAVAILABLE),
											@ExampleObject(name = "refund-outcome-unknown",
													value = ProblemExamples.REFUND_OUTCOME_UNKNOWN) })) })
	ResponseEntity<byte[]> create(@PathVariable String id, @Parameter(hidden = true) IdempotencyKey key,
			@Parameter(hidden = true) @RequestHeader HttpHeaders headers, @Parameter(hidden = true) InputStream body)
			throws IOException, HttpMediaTypeNotSupportedException {
		ClientId clientId = this.currentClient.clientId();
		byte[] bytes = PaymentController.readLimited(body);
		if (bytes.length > 0) {
			requireJson(headers);
		}
		PaymentId paymentId = PaymentController.parseId(id);
		RefundCommand command = this.reader.read(clientId, key, paymentId, bytes);
		return switch (this.refunds.refund(command)) {
			case RefundOutcome.Completed completed ->
				StoredResponses.render(completed.response(), completed.replayed());
			case RefundOutcome.KeyReused reused -> throw IdempotencyProblems.keyReused();
			case RefundOutcome.InProgress inProgress -> throw IdempotencyProblems.inProgress(inProgress.retryAfter());
			case RefundOutcome.PaymentNotFound notFound -> throw PaymentProblems.notFound();
			case RefundOutcome.PaymentNotRefundable notRefundable ->
				throw PaymentProblems.notRefundable(notRefundable.status());
			case RefundOutcome.ExceedsRefundable exceeds ->
				throw PaymentProblems.refundExceedsRefundable(exceeds.refundable());
			case RefundOutcome.Unresolved unresolved -> throw unresolved.outcomeUnknown()
					? PaymentProblems.refundOutcomeUnknown(unresolved.refundId(), unresolved.retryAfter())
					: PaymentProblems.refundProviderUnavailable(unresolved.refundId(), unresolved.retryAfter());
		};
	}

	@GetMapping
	@Operation(summary = "List a payment's refunds, oldest first",
			responses = {
					@ApiResponse(responseCode = "200", description = "The refunds' receipts",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									array = @ArraySchema(schema = @Schema(implementation = RefundReceipt.class)))),
					@ApiResponse(responseCode = "404", description = "payment-not-found",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE)) })
	ResponseEntity<byte[]> list(@PathVariable String id) {
		PaymentId paymentId = PaymentController.parseId(id);
		return this.refunds.findAll(this.currentClient.clientId(), paymentId)
			.map((refunds) -> json(this.responses.receipts(refunds)))
			.orElseThrow(PaymentProblems::notFound);
	}

	@GetMapping("/{refundId}")
	@Operation(summary = "Read one refund of a payment",
			responses = {
					@ApiResponse(responseCode = "200", description = "The refund's receipt",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = RefundReceipt.class))),
					@ApiResponse(responseCode = "404", description = "refund-not-found",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE)) })
	ResponseEntity<byte[]> get(@PathVariable String id, @PathVariable String refundId) {
		PaymentId paymentId = PaymentController.parseId(id);
		RefundId refund = parseRefundId(refundId);
		return this.refunds.find(this.currentClient.clientId(), paymentId, refund)
			.map((found) -> json(this.responses.receipt(found)))
			.orElseThrow(PaymentProblems::refundNotFound);
	}

	private static ResponseEntity<byte[]> json(String body) {
		return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body.getBytes(StandardCharsets.UTF_8));
	}

	/** A body, when sent, must be JSON; an empty body needs no Content-Type. */
	private static void requireJson(HttpHeaders headers) throws HttpMediaTypeNotSupportedException {
		MediaType type;
		try {
			type = headers.getContentType();
		}
		catch (InvalidMediaTypeException ex) {
			type = null;
		}
		if (type == null || !MediaType.APPLICATION_JSON.includes(type)) {
			throw new HttpMediaTypeNotSupportedException(type, List.of(MediaType.APPLICATION_JSON));
		}
	}

	private static RefundId parseRefundId(String id) {
		try {
			UUID uuid = UUID.fromString(id);
			if (!uuid.toString().equals(id)) {
				throw PaymentProblems.refundNotFound();
			}
			return new RefundId(uuid);
		}
		catch (IllegalArgumentException ex) {
			throw PaymentProblems.refundNotFound();
		}
	}

}
