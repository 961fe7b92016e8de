package dev.payonce.payment.web;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import org.slf4j.MDC;

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
// An Accept header that excludes JSON is 406 before anything runs, never a charge whose
// answer the client said it cannot read.
@RequestMapping(path = "/payments",
		produces = { MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_PROBLEM_JSON_VALUE })
class PaymentController implements PaymentOperations {

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

	@Override
	@PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
	public ResponseEntity<byte[]> create(@RequestHeader HttpHeaders headers, InputStream body) throws IOException {
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

	@Override
	@GetMapping("/{id}")
	public ResponseEntity<byte[]> get(@PathVariable String id) {
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
