package dev.payonce.payment;

import java.time.Duration;

import org.springframework.stereotype.Component;

import dev.payonce.idempotency.Lease;
import dev.payonce.idempotency.ReconciliationProperties;
import dev.payonce.idempotency.ReconciliationStep;
import dev.payonce.idempotency.Settlement;

/**
 * The refund operation's reconciliation step (docs/design.md section 8): settles stale
 * refunds exactly as payments are settled, by <b>looking the refund up</b> at the
 * provider and never refunding. Found: completed as a request would (the reservation
 * refunded or given back). Not found past {@code give-up-after}: FAILED, the reservation
 * given back. Otherwise unsettled: the reservation stays until a retry or a later run.
 */
@Component
class RefundReconciliation implements ReconciliationStep {

	private final RefundService refunds;

	private final PaymentService payments;

	private final PaymentGateway gateway;

	private final ReconciliationProperties properties;

	private final PaymentMetrics metrics;

	RefundReconciliation(RefundService refunds, PaymentService payments, PaymentGateway gateway,
			ReconciliationProperties properties, PaymentMetrics metrics) {
		this.refunds = refunds;
		this.payments = payments;
		this.gateway = gateway;
		this.properties = properties;
		this.metrics = metrics;
	}

	@Override
	public String operation() {
		return RefundService.OPERATION;
	}

	@Override
	public Settlement settle(Lease lease) {
		Refund refund = this.refunds.load(new RefundId(lease.resourceId()));
		return switch (lookup(refund)) {
			case GatewayResult.Approved approved -> new Settlement.Found(this.refunds.succeeded(approved));
			case GatewayResult.Declined declined -> new Settlement.Found(this.refunds.declined(declined));
			case GatewayResult.NotAttempted notFound -> givenUp(refund) ? new Settlement.GaveUp(this.refunds.failed())
					: new Settlement.Unsettled(notFound.reason());
			case GatewayResult.Unknown unknown -> new Settlement.Unsettled(unknown.reason());
		};
	}

	private GatewayResult lookup(Refund refund) {
		return this.metrics.providerCall("refund_lookup", refund.id(),
				() -> this.gateway.lookupRefund(this.refunds.refundRequest(refund)));
	}

	private boolean givenUp(Refund refund) {
		return !Duration.between(refund.createdAt(), this.payments.now())
			.minus(this.properties.giveUpAfter())
			.isNegative();
	}

}
