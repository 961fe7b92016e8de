package dev.payonce.payment.web;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.payonce.client.CurrentClient;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.web.IdempotencyProblems;
import dev.payonce.idempotency.web.StoredResponses;
import dev.payonce.payment.PaymentCommand;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.PaymentOutcome;
import dev.payonce.payment.PaymentResponses;
import dev.payonce.payment.PaymentService;
import dev.payonce.web.CanonicalIds;

/**
 * {@code POST /payments} and {@code GET /payments/{id}} (docs/design.md section 2).
 *
 * <p>
 * Everything a request can get wrong (key mode, key, quota, size, JSON, values) is
 * answered before the claim, by the arguments' resolvers ({@link KeyModeCheck},
 * {@link dev.payonce.idempotency.web.IdempotencyKeyArgumentResolver},
 * {@link CommandArgumentResolver}), so a rejected request stores nothing and a corrected
 * retry with the same key works.
 */
@RestController
// An Accept header that excludes JSON is 406 before anything runs, never a charge whose
// answer the client said it cannot read.
@RequestMapping(path = "/payments",
		produces = { MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_PROBLEM_JSON_VALUE })
public class PaymentController implements PaymentOperations {

	private final PaymentService payments;

	private final PaymentResponses responses;

	private final CurrentClient currentClient;

	PaymentController(PaymentService payments, PaymentResponses responses, CurrentClient currentClient) {
		this.payments = payments;
		this.responses = responses;
		this.currentClient = currentClient;
	}

	@Override
	@PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
	public ResponseEntity<byte[]> create(IdempotencyKey key, PaymentCommand command) {
		return switch (this.payments.pay(command)) {
			case PaymentOutcome.Completed completed ->
				StoredResponses.render(completed.response(), completed.replayed());
			case PaymentOutcome.KeyReused reused -> throw IdempotencyProblems.keyReused();
			case PaymentOutcome.InProgress inProgress -> throw IdempotencyProblems.inProgress(inProgress.retryAfter());
			case PaymentOutcome.ProviderUnavailable unavailable ->
				throw PaymentProblems.providerUnavailable(unavailable.paymentId(), unavailable.retryAfter());
			case PaymentOutcome.OutcomeUnknown unknown ->
				throw PaymentProblems.outcomeUnknown(unknown.paymentId(), unknown.retryAfter());
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
	 * The payment id a path names; only the canonical UUID spelling names one.
	 * @param id the path segment
	 * @return the payment id
	 * @throws dev.payonce.web.ApiProblem 404 {@code payment-not-found} for anything else
	 */
	public static PaymentId parseId(String id) {
		return CanonicalIds.parse(id).map(PaymentId::new).orElseThrow(PaymentProblems::notFound);
	}

}
