package dev.payonce.payment;

import java.time.Duration;

import org.slf4j.MDC;

import org.springframework.stereotype.Component;

import dev.payonce.idempotency.ResourceTable;
import dev.payonce.idempotency.StoredResponse;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.ProviderOperation;
import dev.payonce.provider.ProviderServices;

/**
 * The payment operation on the provider kernel (docs/design.md section 4): the charge,
 * its lookup, and the responses a payment's final status stores. Everything else (one
 * call per provider key, lookups instead of repeats, releases, new key generations,
 * reconciliation) is {@link ProviderOperation}'s. A charge lookup may read an eventually
 * consistent index (Stripe's Search), so a lookup that finds nothing is proof only the
 * gateway's lookup settle time after the key's replay
 * ({@link dev.payonce.provider.PaymentGateway#lookupSettleTime()}).
 */
@Component
class Charges extends ProviderOperation<Payment, GatewayResult> {

	private final PaymentResponses responses;

	Charges(ResourceTable<Payment> table, Payments payments, ProviderServices services, PaymentResponses responses) {
		super(PaymentService.OPERATION, table, payments, services);
		this.responses = responses;
	}

	@Override
	protected GatewayResult send(Payment payment) {
		return services().gateway().charge(payment.chargeRequest());
	}

	@Override
	protected GatewayResult lookUp(Payment payment) {
		return services().gateway().lookup(payment.chargeRequest());
	}

	@Override
	protected String callTag() {
		return "charge";
	}

	@Override
	protected StoredResponse response(Payment payment) {
		return switch (payment.status()) {
			case SUCCEEDED -> this.responses.created(payment);
			case DECLINED -> this.responses.declined(payment);
			case FAILED -> this.responses.failed(payment);
			case PENDING -> throw new IllegalStateException("Payment " + payment.id() + " is not final");
		};
	}

	/**
	 * The reason is the provider's answer itself; {@link PaymentService#pay} turns it
	 * into the client's outcome.
	 */
	@Override
	protected GatewayResult unresolved(Payment payment, GatewayResult reason) {
		return reason;
	}

	/** The gateway's lookup settle time (docs/design.md section 5). */
	@Override
	public Duration settleTime() {
		return services().gateway().lookupSettleTime();
	}

	/**
	 * For a provider that replays a failed answer under a key for good (Stripe), a charge
	 * the reconciler found nothing of moves to a new provider key generation.
	 */
	@Override
	protected boolean reattemptsUnderNewKey(Payment payment) {
		return services().gateway().replaysFailuresUnderProviderKey();
	}

	@Override
	protected void logContext(Payment payment) {
		MDC.put("paymentId", payment.id().toString());
	}

}
