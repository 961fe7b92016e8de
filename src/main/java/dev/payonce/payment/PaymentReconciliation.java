package dev.payonce.payment;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

import dev.payonce.idempotency.Lease;
import dev.payonce.idempotency.ReconciliationProperties;
import dev.payonce.idempotency.ReconciliationStep;
import dev.payonce.idempotency.Settlement;

/**
 * The payment operation's reconciliation step (docs/design.md section 4, step 5):
 * <b>looks the payment up</b> at the provider and never charges.
 *
 * <ul>
 * <li>Found (approved or declined): completes payment and record exactly as a request
 * would.</li>
 * <li>Not found, payment older than {@code give-up-after}: payment FAILED, record
 * COMPLETED with a stored {@code payment-failed} problem.</li>
 * <li>Not found but younger, or the lookup failed: unsettled; a client retry or a later
 * run decides.</li>
 * </ul>
 * The engine's {@link dev.payonce.idempotency.IdempotencyReconciler} hands it only stale
 * records of the {@code payment} operation.
 */
@Component
class PaymentReconciliation implements ReconciliationStep {

	private static final Logger log = LoggerFactory.getLogger(PaymentReconciliation.class);

	private final PaymentService payments;

	private final PaymentGateway gateway;

	private final ReconciliationProperties properties;

	private final PaymentMetrics metrics;

	PaymentReconciliation(PaymentService payments, PaymentGateway gateway, ReconciliationProperties properties,
			PaymentMetrics metrics) {
		this.payments = payments;
		this.gateway = gateway;
		this.properties = properties;
		this.metrics = metrics;
	}

	@Override
	public String operation() {
		return PaymentService.OPERATION;
	}

	@Override
	public Settlement settle(Lease lease) {
		Payment payment = this.payments.load(new PaymentId(lease.resourceId()));
		return switch (lookup(payment)) {
			case GatewayResult.Approved approved -> new Settlement.Found(this.payments.succeeded(approved));
			case GatewayResult.Declined declined -> new Settlement.Found(this.payments.declined(declined));
			case GatewayResult.NotAttempted notFound -> givenUp(payment) ? new Settlement.GaveUp(this.payments.failed())
					: new Settlement.Unsettled(notFound.reason());
			case GatewayResult.Unknown unknown -> new Settlement.Unsettled(unknown.reason());
		};
	}

	private GatewayResult lookup(Payment payment) {
		long started = System.nanoTime();
		GatewayResult result;
		try {
			result = this.gateway.lookup(payment.id().providerIdempotencyKey());
		}
		catch (RuntimeException ex) {
			// A gateway must not throw: a bug, and the lookup's answer is unknown.
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

}
