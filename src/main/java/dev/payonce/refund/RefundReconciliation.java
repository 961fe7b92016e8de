package dev.payonce.refund;

import java.time.Duration;

import org.springframework.stereotype.Component;

import dev.payonce.idempotency.Lease;
import dev.payonce.idempotency.ReconciliationProperties;
import dev.payonce.idempotency.ReconciliationStep;
import dev.payonce.idempotency.ReconciliationStep.Settlement;
import dev.payonce.payment.PaymentService;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.OperationContext;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.provider.ProviderMetrics;

/**
 * The refund operation's reconciliation step (docs/design.md section 8): settles stale
 * refunds exactly as payments are settled, by <b>looking the refund up</b> at the
 * provider and never refunding. Found: completed as a request would (the reservation
 * refunded or given back). Not found past {@code give-up-after}: FAILED, the reservation
 * given back. Not found behind a key answered from what the provider saved: a new
 * provider key generation (docs/design.md section 8). Otherwise unsettled: the
 * reservation stays until a retry or a later run.
 */
@Component
class RefundReconciliation implements ReconciliationStep {

	private final RefundService refunds;

	private final PaymentService payments;

	private final PaymentGateway gateway;

	private final ReconciliationProperties properties;

	private final ProviderMetrics metrics;

	private final OperationContext context;

	RefundReconciliation(RefundService refunds, PaymentService payments, PaymentGateway gateway,
			ReconciliationProperties properties, ProviderMetrics metrics, OperationContext context) {
		this.refunds = refunds;
		this.payments = payments;
		this.gateway = gateway;
		this.properties = properties;
		this.metrics = metrics;
		this.context = context;
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
			case GatewayResult.NotAttempted notFound -> notFound(refund, notFound);
			case GatewayResult.Unknown unknown -> new Settlement.Unsettled(unknown.reason());
		};
	}

	/**
	 * The provider has no such refund: give it up once it is old enough; before that, if
	 * the refund's key was answered from what the provider saved (so the request that
	 * executed under it had ended and none executes after it, and a refund lookup reads
	 * the provider's own writes), move it to a new provider key generation in the fenced
	 * release so the next retry is not answered by a saved 500.
	 */
	private Settlement notFound(Refund refund, GatewayResult.NotAttempted notFound) {
		if (givenUp(refund)) {
			return new Settlement.GaveUp(this.refunds.failed());
		}
		if (refund.providerKeyReplayedAt() != null) {
			return new Settlement.Reattempt(notFound.reason(),
					this.refunds.newProviderKeyGeneration(refund.providerKeyGeneration()));
		}
		return new Settlement.Unsettled(notFound.reason());
	}

	private GatewayResult lookup(Refund refund) {
		return this.metrics.providerCall("refund_lookup", refund.id(),
				() -> this.gateway.lookupRefund(this.refunds.refundRequest(refund)));
	}

	private boolean givenUp(Refund refund) {
		return !Duration.between(refund.createdAt(), this.context.now())
			.minus(this.properties.giveUpAfter())
			.isNegative();
	}

}
