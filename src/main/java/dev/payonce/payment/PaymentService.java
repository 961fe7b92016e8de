package dev.payonce.payment;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import org.springframework.stereotype.Service;

import dev.payonce.client.ClientId;
import dev.payonce.idempotency.Claim;
import dev.payonce.idempotency.ClaimRequest;
import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.Lease;
import dev.payonce.idempotency.StoredResponse;

/**
 * Creates payments exactly once per (client, idempotency key) (DESIGN.md section 4).
 *
 * <p>
 * The state machine: claim the key and create a {@code PENDING} payment in one short
 * transaction; call the provider outside any transaction with the provider idempotency
 * key derived from the payment id; then complete payment and record in one fenced
 * transaction (approved: 201, declined: 402), or release the lease at once when the
 * provider did not act or its outcome is unknown (503). A takeover re-drives the same
 * payment with the same provider key, so the provider returns the original charge instead
 * of making a second one.
 *
 * <p>
 * Thread-safe; correct with any number of concurrent requests and application instances
 * sharing one database.
 */
@Service
public class PaymentService {

	private static final Logger log = LoggerFactory.getLogger(PaymentService.class);

	private final IdempotencyService idempotency;

	private final Payments payments;

	private final PaymentGateway gateway;

	private final PaymentResponses responses;

	private final Clock clock;

	private final PaymentMetrics metrics;

	PaymentService(IdempotencyService idempotency, Payments payments, PaymentGateway gateway,
			PaymentResponses responses, Clock clock, PaymentMetrics metrics) {
		this.idempotency = idempotency;
		this.payments = payments;
		this.gateway = gateway;
		this.responses = responses;
		this.clock = clock;
		this.metrics = metrics;
	}

	/**
	 * Creates the payment, or answers what an earlier request with the same key decided.
	 * @param command the validated request
	 * @param authorize checks the caller's authorisation again inside the claim
	 * transaction (point of effect) and throws to refuse; nothing is then written or
	 * charged
	 * @return the outcome to render
	 * @throws org.springframework.dao.DataAccessException if the database fails before or
	 * after the provider call; the key is then either unclaimed or held by a lease that a
	 * later retry takes over
	 */
	public PaymentOutcome pay(PaymentCommand command, Runnable authorize) {
		PaymentId paymentId = PaymentId.random();
		ClaimRequest request = new ClaimRequest(command.clientId(), command.idempotencyKey(), command.fingerprint(),
				paymentId.value());
		Payment pending = Payment.pending(paymentId, command.clientId(), command.orderId(), command.amount(),
				command.paymentMethod(), now());
		Claim claim = this.idempotency.claim(request, authorize, () -> this.payments.save(pending));
		return switch (claim) {
			case Claim.Replay replay -> new PaymentOutcome.Completed(replay.response(), true);
			case Claim.Mismatch mismatch -> new PaymentOutcome.KeyReused();
			case Claim.InProgress inProgress -> new PaymentOutcome.InProgress(inProgress.retryAfter());
			// A fresh claim just wrote the payment; only a takeover needs to read it
			// back.
			case Claim.Acquired acquired -> charge(acquired.lease(),
					acquired.takeover() ? load(new PaymentId(acquired.lease().resourceId())) : pending);
		};
	}

	/**
	 * A client's payment.
	 * @param clientId the calling client
	 * @param id the payment id
	 * @return the payment, or empty if it does not exist or belongs to another client
	 */
	public Optional<Payment> find(ClientId clientId, PaymentId id) {
		return this.payments.findByIdAndClientId(id.value(), clientId.value());
	}

	private PaymentOutcome charge(Lease lease, Payment payment) {
		PaymentId paymentId = new PaymentId(lease.resourceId());
		MDC.put("paymentId", paymentId.toString());
		return switch (callProvider(payment)) {
			case GatewayResult.Approved approved -> complete(lease, approved);
			case GatewayResult.Declined declined -> complete(lease, declined);
			case GatewayResult.NotAttempted notAttempted -> unresolved(lease, paymentId, false, notAttempted.reason());
			case GatewayResult.Unknown unknown -> unresolved(lease, paymentId, true, unknown.reason());
		};
	}

	/**
	 * Completes the payment held by {@code lease} with the provider's final answer,
	 * exactly as a request would: payment and record in one fenced transaction.
	 * @return the stored 201 or 402, or 409 if another attempt holds the key now
	 */
	PaymentOutcome complete(Lease lease, GatewayResult.Approved approved) {
		return complete(lease, PaymentStatus.SUCCEEDED, (payment) -> {
			payment.markSucceeded(approved.providerReference(), now());
			return this.responses.created(payment);
		});
	}

	PaymentOutcome complete(Lease lease, GatewayResult.Declined declined) {
		return complete(lease, PaymentStatus.DECLINED, (payment) -> {
			payment.markDeclined(declined.providerReference(), declined.declineCode(), now());
			return this.responses.declined(payment);
		});
	}

	/** Reconciliation gave up: payment FAILED and the failure stored for every retry. */
	PaymentOutcome fail(Lease lease) {
		return complete(lease, PaymentStatus.FAILED, (payment) -> {
			payment.markFailed(now());
			return this.responses.failed(payment);
		});
	}

	private GatewayResult callProvider(Payment payment) {
		long started = System.nanoTime();
		GatewayResult result;
		try {
			result = this.gateway.charge(payment.chargeRequest());
		}
		catch (RuntimeException ex) {
			// A gateway must not throw; if one does, the charge may or may not have
			// happened.
			log.error("Payment gateway threw for payment {}", payment.id(), ex);
			result = new GatewayResult.Unknown("gateway threw " + ex.getClass().getSimpleName());
		}
		this.metrics.providerCall("charge", result, System.nanoTime() - started);
		return result;
	}

	private PaymentOutcome complete(Lease lease, PaymentStatus status, Function<Payment, StoredResponse> finish) {
		PaymentId paymentId = new PaymentId(lease.resourceId());
		return this.idempotency.complete(lease, () -> finish.apply(load(paymentId))).<PaymentOutcome>map((response) -> {
			this.metrics.paymentFinished(status);
			log.info("Payment {} completed: {} ({})", paymentId, status, response.status());
			return new PaymentOutcome.Completed(response, false);
		})
			// Another attempt took the key over and will complete the same payment.
			.orElseGet(() -> new PaymentOutcome.InProgress(this.idempotency.retryAfter()));
	}

	private PaymentOutcome unresolved(Lease lease, PaymentId paymentId, boolean outcomeUnknown, String reason) {
		log.warn("Payment {} unresolved ({}): {}; lease released for a retry", paymentId,
				outcomeUnknown ? "outcome unknown" : "not attempted", reason);
		this.idempotency.release(lease);
		return new PaymentOutcome.Unresolved(paymentId, this.idempotency.retryAfter(), outcomeUnknown);
	}

	/**
	 * A payment by id, whatever its client; for the reconciler.
	 * @throws IllegalStateException if the payment does not exist
	 */
	Payment load(PaymentId paymentId) {
		return this.payments.findById(paymentId.value())
			.orElseThrow(() -> new IllegalStateException("Claimed payment " + paymentId + " does not exist"));
	}

	Instant now() {
		// PostgreSQL keeps microseconds; a receipt must read the same before and after a
		// reload.
		return this.clock.instant().truncatedTo(ChronoUnit.MICROS);
	}

}
