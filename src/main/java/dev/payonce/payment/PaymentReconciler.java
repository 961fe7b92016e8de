package dev.payonce.payment;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import org.springframework.stereotype.Component;

import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.KeyDigests;
import dev.payonce.idempotency.Lease;

/**
 * Finishes payments that nobody retried (DESIGN.md section 4, step 5): takes over
 * IN_PROGRESS records whose lease ended more than {@code stale-after} ago and <b>looks
 * the payment up</b> at the provider. It never charges.
 *
 * <ul>
 * <li>Found (approved or declined): completes payment and record exactly as a request
 * would.</li>
 * <li>Not found, payment older than {@code give-up-after}: payment FAILED, record
 * COMPLETED with a stored {@code payment-failed} problem.</li>
 * <li>Not found but younger, or the lookup failed: releases the lease; a client retry or
 * a later run decides.</li>
 * </ul>
 * Safe on several instances at once: each stale record is taken over by one of them
 * ({@code FOR UPDATE SKIP LOCKED}), and every completion is fenced by the attempt number.
 */
@Component
public class PaymentReconciler {

	private static final Logger log = LoggerFactory.getLogger(PaymentReconciler.class);

	private final IdempotencyService idempotency;

	private final PaymentService payments;

	private final PaymentGateway gateway;

	private final ReconciliationProperties properties;

	private final PaymentMetrics metrics;

	private final KeyDigests keyDigests;

	PaymentReconciler(IdempotencyService idempotency, PaymentService payments, PaymentGateway gateway,
			ReconciliationProperties properties, PaymentMetrics metrics, KeyDigests keyDigests) {
		this.idempotency = idempotency;
		this.payments = payments;
		this.gateway = gateway;
		this.properties = properties;
		this.metrics = metrics;
		this.keyDigests = keyDigests;
	}

	/**
	 * One run: takes over at most {@code batch-size} stale records and settles each one.
	 * @return what this run did
	 */
	public Report reconcile() {
		List<Lease> stale = this.idempotency.takeOverStale(this.properties.staleAfter(), this.properties.batchSize());
		int found = 0;
		int failed = 0;
		int released = 0;
		for (Lease lease : stale) {
			Settlement settlement = settleOrRelease(lease);
			this.metrics.reconciled(settlement.name().toLowerCase(Locale.ROOT));
			switch (settlement) {
				case FOUND -> found++;
				case FAILED -> failed++;
				case RELEASED -> released++;
			}
		}
		Report report = new Report(stale.size(), found, failed, released);
		if (report.takenOver() > 0) {
			log.info("Reconciliation run: {}", report);
		}
		return report;
	}

	/**
	 * One failure must not strand the rest of the batch under a lease nobody works on.
	 */
	private Settlement settleOrRelease(Lease lease) {
		try {
			return settle(lease);
		}
		catch (RuntimeException ex) {
			log.error("Reconciliation failed for resource {}; lease released for a later run", lease.resourceId(), ex);
			return release(lease);
		}
	}

	private Settlement settle(Lease lease) {
		PaymentId paymentId = new PaymentId(lease.resourceId());
		try (var clientId = MDC.putCloseable("clientId", lease.clientId().value());
				var payment = MDC.putCloseable("paymentId", paymentId.toString());
				var key = MDC.putCloseable("idempotencyKeyDigest",
						this.keyDigests.digest(lease.clientId().value(), lease.key()))) {
			return settle(lease, paymentId);
		}
	}

	private Settlement settle(Lease lease, PaymentId paymentId) {
		Payment payment = this.payments.load(paymentId);
		GatewayResult result = lookup(payment);
		return switch (result) {
			case GatewayResult.Approved approved -> completed(this.payments.complete(lease, approved));
			case GatewayResult.Declined declined -> completed(this.payments.complete(lease, declined));
			case GatewayResult.NotAttempted notFound -> givenUp(payment) ? failed(lease, paymentId) : release(lease);
			case GatewayResult.Unknown unknown -> release(lease);
		};
	}

	private GatewayResult lookup(Payment payment) {
		long started = System.nanoTime();
		GatewayResult result;
		try {
			result = this.gateway.lookup(payment.id().providerIdempotencyKey());
		}
		catch (RuntimeException ex) {
			log.error("Payment gateway lookup threw for payment {}", payment.id(), ex);
			result = new GatewayResult.Unknown("lookup threw " + ex.getClass().getSimpleName());
		}
		this.metrics.providerCall("lookup", result, System.nanoTime() - started);
		return result;
	}

	private boolean givenUp(Payment payment) {
		return !Duration.between(payment.createdAt(), this.payments.now())
			.minus(this.properties.giveUpAfter())
			.isNegative();
	}

	private Settlement failed(Lease lease, PaymentId paymentId) {
		log.warn("Reconciliation gave up on payment {}: the provider has no charge for it", paymentId);
		this.payments.fail(lease);
		return Settlement.FAILED;
	}

	private static Settlement completed(PaymentOutcome outcome) {
		return (outcome instanceof PaymentOutcome.Completed) ? Settlement.FOUND : Settlement.RELEASED;
	}

	private Settlement release(Lease lease) {
		this.idempotency.release(lease);
		return Settlement.RELEASED;
	}

	private enum Settlement {

		FOUND, FAILED, RELEASED

	}

	/**
	 * What one reconciliation run did.
	 *
	 * @param takenOver stale records taken over
	 * @param found payments the provider had, completed as SUCCEEDED or DECLINED
	 * @param failed payments given up on, completed as FAILED
	 * @param released records left for a retry or a later run
	 */
	public record Report(int takenOver, int found, int failed, int released) {
	}

}
