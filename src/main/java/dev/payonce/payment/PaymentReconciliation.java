package dev.payonce.payment;

import java.time.Duration;

import org.springframework.stereotype.Component;

import dev.payonce.idempotency.Lease;
import dev.payonce.idempotency.ReconciliationProperties;
import dev.payonce.idempotency.ReconciliationStep;
import dev.payonce.idempotency.ReconciliationStep.Settlement;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.OperationContext;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.provider.ProviderMetrics;

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
 * run decides. For a provider that replays a failed answer under a key (Stripe), not
 * found also moves the payment to a new provider key generation in the fenced release, so
 * that a key whose first attempt was answered with a saved 500 cannot hold the payment
 * forever.</li>
 * </ul>
 * Its records are left alone at least the gateway's lookup settle time
 * ({@link PaymentGateway#lookupSettleTime()}) after their lease ended. The engine's
 * {@link dev.payonce.idempotency.IdempotencyReconciler} hands it only stale records of
 * the {@code payment} operation.
 */
@Component
class PaymentReconciliation implements ReconciliationStep {

	private final PaymentService payments;

	private final PaymentGateway gateway;

	private final ReconciliationProperties properties;

	private final ProviderMetrics metrics;

	private final OperationContext context;

	PaymentReconciliation(PaymentService payments, PaymentGateway gateway, ReconciliationProperties properties,
			ProviderMetrics metrics, OperationContext context) {
		this.payments = payments;
		this.gateway = gateway;
		this.properties = properties;
		this.metrics = metrics;
		this.context = context;
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
			case GatewayResult.NotAttempted notFound -> notFound(payment, notFound);
			case GatewayResult.Unknown unknown -> new Settlement.Unsettled(unknown.reason());
		};
	}

	/**
	 * The provider has no charge for the payment: give it up once it is old enough;
	 * before that, if the provider replays a failed answer under the key for good, move
	 * the payment to a new provider key generation (in the fenced release) so the next
	 * retry is not answered by it. The lookup is proof because this record was left alone
	 * for at least the gateway's lookup settle time after its last lease ended
	 * ({@link #settleTime()}), and no other attempt can act while this lease is held.
	 */
	private Settlement notFound(Payment payment, GatewayResult.NotAttempted notFound) {
		if (payment.providerReference() != null) {
			// The provider named a charge of this payment: it exists, whatever a lookup
			// says.
			return new Settlement.Unsettled(notFound.reason());
		}
		if (givenUp(payment)) {
			return new Settlement.GaveUp(this.payments.failed());
		}
		if (this.gateway.replaysFailuresUnderProviderKey()) {
			return new Settlement.Reattempt(notFound.reason(),
					this.payments.newProviderKeyGeneration(payment.providerKeyGeneration()));
		}
		return new Settlement.Unsettled(notFound.reason());
	}

	/**
	 * The gateway's lookup settle time: a lookup that finds nothing is proof only that
	 * long after the last charge call ended (docs/design.md section 5).
	 */
	@Override
	public Duration settleTime() {
		return this.gateway.lookupSettleTime();
	}

	private GatewayResult lookup(Payment payment) {
		return this.metrics.providerCall("lookup", payment.id(), () -> this.gateway.lookup(payment.chargeRequest()));
	}

	private boolean givenUp(Payment payment) {
		return !Duration.between(payment.createdAt(), this.context.now())
			.minus(this.properties.giveUpAfter())
			.isNegative();
	}

}
