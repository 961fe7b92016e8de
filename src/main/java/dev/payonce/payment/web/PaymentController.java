package dev.payonce.payment.web;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import org.slf4j.MDC;

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
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.payonce.client.ClientId;
import dev.payonce.client.CurrentClient;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.KeyDigests;
import dev.payonce.idempotency.RecordQuota;
import dev.payonce.idempotency.StoredResponse;
import dev.payonce.payment.PaymentCommand;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.PaymentOutcome;
import dev.payonce.payment.PaymentReceipt;
import dev.payonce.payment.PaymentResponses;
import dev.payonce.payment.PaymentService;
import dev.payonce.web.BodySizeFilter;

/**
 * {@code POST /payments} and {@code GET /payments/{id}} (DESIGN.md section 2).
 *
 * <p>
 * Everything a request can get wrong (key, size, JSON, values) is answered here, before
 * the claim, so a rejected request stores nothing and a corrected retry with the same key
 * works.
 */
@RestController
@RequestMapping("/payments")
@Tag(name = "Payments")
@SecurityRequirement(name = PaymentApiDocumentation.BEARER)
class PaymentController {

	/** Header naming the operation (IETF Idempotency-Key draft). */
	static final String IDEMPOTENCY_KEY = "Idempotency-Key";

	/** Header marking a replayed response; never taken from the client. */
	static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";

	/** The largest request body accepted, in bytes (16 KiB). */
	static final int MAX_BODY_BYTES = BodySizeFilter.MAX_BODY_BYTES;

	private final PaymentService payments;

	private final PaymentRequestReader reader;

	private final PaymentResponses responses;

	private final CurrentClient currentClient;

	private final KeyDigests keyDigests;

	private final RecordQuota quota;

	PaymentController(PaymentService payments, PaymentRequestReader reader, PaymentResponses responses,
			CurrentClient currentClient, KeyDigests keyDigests, RecordQuota quota) {
		this.quota = quota;
		this.payments = payments;
		this.reader = reader;
		this.responses = responses;
		this.currentClient = currentClient;
		this.keyDigests = keyDigests;
	}

	// produces: an Accept that admits neither JSON nor problem JSON is 406 before the
	// handler runs, so nothing is charged for an answer the client refuses.
	@PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE,
			produces = { MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_PROBLEM_JSON_VALUE })
	@Operation(summary = "Create a payment, at most once per Idempotency-Key",
			description = "Validates the request, claims the Idempotency-Key for the calling client, charges the provider "
					+ "with a provider idempotency key derived from the payment id, and stores the answer. Every retry "
					+ "with the same key and request gets the stored answer back, byte for byte.",
			parameters = @Parameter(name = IDEMPOTENCY_KEY, in = ParameterIn.HEADER, required = true,
					description = "Names this payment: 1-255 visible ASCII characters, bare (abc) or as an RFC 8941 "
							+ "string (\"abc\"); both spellings name the same key. Scoped to the calling client.",
					schema = @Schema(type = "string", minLength = 1, maxLength = 255), example = "order-123-attempt-1"),
			requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = PaymentRequestDocument.class))),
			responses = {
					@ApiResponse(responseCode = "201",
							description = "Approved: the receipt. Replays add Idempotent-Replayed: true.",
							headers = { @Header(name = "Location", description = "/payments/{id}"),
									@Header(name = IDEMPOTENT_REPLAYED,
											description = "true when this is a stored response replayed") },
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = PaymentReceipt.class))),
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
							description = "Declined by the provider, or given up by reconciliation; stored and replayed",
							headers = @Header(name = IDEMPOTENT_REPLAYED, description = "true when replayed"),
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = {
											@ExampleObject(name = "payment-declined", value = ProblemExamples.DECLINED),
											@ExampleObject(name = "payment-failed", value = ProblemExamples.FAILED) })),
					@ApiResponse(responseCode = "408", description = "The body stalled; nothing stored",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "request-timeout",
											value = ProblemExamples.REQUEST_TIMEOUT))),
					@ApiResponse(responseCode = "409", description = "A request with this key is still in progress",
							headers = @Header(name = "Retry-After", description = "seconds to wait before retrying"),
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "idempotency-request-in-progress",
											value = ProblemExamples.IN_PROGRESS))),
					@ApiResponse(responseCode = "413", description = "Body over 16 KiB",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "payload-too-large",
											value = ProblemExamples.TOO_LARGE))),
					@ApiResponse(responseCode = "415", description = "Body not application/json",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "unsupported-media-type",
											value = ProblemExamples.UNSUPPORTED))),
					@ApiResponse(responseCode = "422",
							description = "The key was used with a different request; nothing executed",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "idempotency-key-reused",
											value = ProblemExamples.KEY_REUSED))),
					@ApiResponse(responseCode = "429",
							description = "Over the client's request rate, or the client holds the most live keys allowed",
							headers = @Header(name = "Retry-After", description = "seconds to wait before retrying"),
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE, examples = {
									@ExampleObject(name = "rate-limit-exceeded", value = ProblemExamples.RATE_LIMITED),
									@ExampleObject(name = "idempotency-quota-exceeded",
											value = ProblemExamples.QUOTA_EXCEEDED) })),
					@ApiResponse(responseCode = "503",
							description = "The provider refused or its outcome is unknown; the payment stays PENDING and a retry with the same key resolves it",
							headers = @Header(name = "Retry-After", description = "seconds to wait before retrying"),
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = {
											@ExampleObject(name = "payment-provider-unavailable",
													value = ProblemExamples.PROVIDER_UNAVAILABLE),
											@ExampleObject(name = "payment-outcome-unknown",
													value = ProblemExamples.OUTCOME_UNKNOWN) })) })
	ResponseEntity<byte[]> create(@Parameter(hidden = true) @RequestHeader HttpHeaders headers,
			@Parameter(hidden = true) InputStream body) throws IOException {
		ClientId clientId = this.currentClient.clientId();
		IdempotencyKey key = idempotencyKey(headers.get(IDEMPOTENCY_KEY));
		MDC.put("idempotencyKeyDigest", this.keyDigests.digest(clientId.value(), key));
		this.quota.refusal(clientId.value(), key).ifPresent((retryAfter) -> {
			throw PaymentProblems.quotaExceeded(retryAfter);
		});
		PaymentCommand command = this.reader.read(clientId, key, readLimited(body));
		return switch (this.payments.pay(command, this.currentClient::confirmAuthorized)) {
			case PaymentOutcome.Completed completed -> render(completed.response(), completed.replayed());
			case PaymentOutcome.KeyReused reused -> throw PaymentProblems.keyReused();
			case PaymentOutcome.InProgress inProgress -> throw PaymentProblems.inProgress(inProgress.retryAfter());
			case PaymentOutcome.Unresolved unresolved -> throw unresolved.outcomeUnknown()
					? PaymentProblems.outcomeUnknown(unresolved.paymentId(), unresolved.retryAfter())
					: PaymentProblems.providerUnavailable(unresolved.paymentId(), unresolved.retryAfter());
		};
	}

	@GetMapping(path = "/{id}",
			produces = { MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_PROBLEM_JSON_VALUE })
	@Operation(summary = "Read a payment of the calling client", responses = {
			@ApiResponse(responseCode = "200", description = "The receipt",
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = PaymentReceipt.class))),
			@ApiResponse(responseCode = "404", description = "No such payment for this client", content = @Content(
					mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
					examples = @ExampleObject(name = "payment-not-found", value = ProblemExamples.NOT_FOUND))) })
	ResponseEntity<byte[]> get(@PathVariable String id) {
		PaymentId paymentId = parseId(id);
		return this.payments.find(this.currentClient.clientId(), paymentId)
			.map((payment) -> ResponseEntity.ok()
				.contentType(MediaType.APPLICATION_JSON)
				.body(this.responses.receipt(payment).getBytes(StandardCharsets.UTF_8)))
			.orElseThrow(PaymentProblems::notFound);
	}

	private static IdempotencyKey idempotencyKey(@org.jspecify.annotations.Nullable List<String> values) {
		if (values == null || values.isEmpty()) {
			throw PaymentProblems.keyMissing();
		}
		if (values.size() > 1) {
			throw PaymentProblems.keyInvalid("the header was sent more than once");
		}
		try {
			return IdempotencyKey.fromHeader(values.get(0));
		}
		catch (IllegalArgumentException ex) {
			// The message names a rule and a length, never the key itself.
			throw PaymentProblems.keyInvalid(ex.getMessage());
		}
	}

	private static byte[] readLimited(InputStream body) throws IOException {
		byte[] bytes = body.readNBytes(MAX_BODY_BYTES + 1);
		if (bytes.length > MAX_BODY_BYTES) {
			throw PaymentProblems.payloadTooLarge(MAX_BODY_BYTES);
		}
		return bytes;
	}

	private static PaymentId parseId(String id) {
		try {
			UUID uuid = UUID.fromString(id);
			// UUID.fromString accepts non-canonical spellings; only the canonical one
			// names a payment.
			if (!uuid.toString().equals(id)) {
				throw PaymentProblems.notFound();
			}
			return new PaymentId(uuid);
		}
		catch (IllegalArgumentException ex) {
			throw PaymentProblems.notFound();
		}
	}

	private static ResponseEntity<byte[]> render(StoredResponse response, boolean replayed) {
		HttpHeaders headers = new HttpHeaders();
		response.headers().forEach(headers::set);
		if (replayed) {
			headers.set(IDEMPOTENT_REPLAYED, "true");
		}
		return ResponseEntity.status(response.status())
			.headers(headers)
			.body(response.body().getBytes(StandardCharsets.UTF_8));
	}

}
