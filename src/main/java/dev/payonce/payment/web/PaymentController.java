package dev.payonce.payment.web;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.payonce.client.ClientId;
import dev.payonce.client.CurrentClient;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.web.IdempotencyProblems;
import dev.payonce.idempotency.web.StoredResponses;
import dev.payonce.payment.PaymentCommand;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.PaymentOutcome;
import dev.payonce.payment.PaymentResponses;
import dev.payonce.payment.PaymentService;
import dev.payonce.web.edge.BodySizeFilter;

/**
 * {@code POST /payments} and {@code GET /payments/{id}} (docs/design.md section 2).
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
public class PaymentController implements PaymentOperations {

	private static final Logger log = LoggerFactory.getLogger(PaymentController.class);

	/** The largest request body accepted, in bytes (16 KiB). */
	static final int MAX_BODY_BYTES = BodySizeFilter.MAX_BODY_BYTES;

	private final PaymentService payments;

	private final PaymentRequestReader reader;

	private final PaymentResponses responses;

	private final CurrentClient currentClient;

	private final IdempotencyService idempotency;

	private final PaymentGateway gateway;

	PaymentController(PaymentService payments, PaymentRequestReader reader, PaymentResponses responses,
			CurrentClient currentClient, IdempotencyService idempotency, PaymentGateway gateway) {
		this.payments = payments;
		this.reader = reader;
		this.responses = responses;
		this.currentClient = currentClient;
		this.idempotency = idempotency;
		this.gateway = gateway;
	}

	@Override
	@PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
	public ResponseEntity<byte[]> create(IdempotencyKey key, InputStream body) throws IOException {
		ClientId clientId = this.currentClient.clientId();
		requireKeyMode(this.gateway, this.currentClient);
		this.idempotency.quotaRefusal(clientId.value(), key).ifPresent((retryAfter) -> {
			throw PaymentProblems.quotaExceeded(retryAfter);
		});
		PaymentCommand command = this.reader.read(clientId, key, readLimited(body));
		return switch (this.payments.pay(command)) {
			case PaymentOutcome.Completed completed ->
				StoredResponses.render(completed.response(), completed.replayed());
			case PaymentOutcome.KeyReused reused -> throw IdempotencyProblems.keyReused();
			case PaymentOutcome.InProgress inProgress -> throw IdempotencyProblems.inProgress(inProgress.retryAfter());
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

	/**
	 * Refuses a request whose API key is of the other mode than the provider's, before
	 * anything is stored (docs/design.md section 5, "One mode per adapter").
	 * @throws dev.payonce.web.ApiProblem 403 {@code api-key-mode-mismatch}
	 */
	public static void requireKeyMode(PaymentGateway gateway, CurrentClient currentClient) {
		gateway.mode().ifPresent((providerMode) -> {
			PaymentGateway.Mode keyMode = PaymentGateway.Mode.ofKey(currentClient.live());
			if (keyMode != providerMode) {
				log.warn("Refused a request of client {} with a {} API key: the payment provider runs in {} mode",
						currentClient.clientId(), keyMode, providerMode);
				throw PaymentProblems.keyModeMismatch(keyMode, providerMode);
			}
		});
	}

	/**
	 * Reads a request body of at most 16 KiB ({@link BodySizeFilter#MAX_BODY_BYTES}).
	 * @param body the request's body
	 * @return its bytes
	 * @throws IOException if reading fails
	 * @throws dev.payonce.web.ApiProblem 413 {@code payload-too-large} for a longer body
	 */
	public static byte[] readLimited(InputStream body) throws IOException {
		byte[] bytes = body.readNBytes(MAX_BODY_BYTES + 1);
		if (bytes.length > MAX_BODY_BYTES) {
			throw PaymentProblems.payloadTooLarge(MAX_BODY_BYTES);
		}
		return bytes;
	}

	/**
	 * The payment id a path names; only the canonical UUID spelling names one.
	 * @param id the path segment
	 * @return the payment id
	 * @throws dev.payonce.web.ApiProblem 404 {@code payment-not-found} for anything else
	 */
	public static PaymentId parseId(String id) {
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

}
