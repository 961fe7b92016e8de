package dev.payonce.payment;

import java.time.Duration;

/**
 * The port to a payment provider (docs/design.md section 5). Adapters live in
 * {@code dev.payonce.gateway.*}; nothing outside an adapter sees a provider's own types.
 *
 * <p>
 * Implementations must deduplicate by {@link ChargeRequest#providerIdempotencyKey()} and
 * {@link RefundRequest#providerIdempotencyKey()}: a second charge or refund with the same
 * key returns the first one's result and moves no money. They are called outside any
 * Payonce database transaction and must be safe to call concurrently.
 */
public interface PaymentGateway {

	/**
	 * Charges once per provider idempotency key.
	 * @param request what to charge
	 * @return the provider's answer; infrastructure failures are
	 * {@link GatewayResult.Unknown} or {@link GatewayResult.NotAttempted}, never
	 * exceptions
	 */
	GatewayResult charge(ChargeRequest request);

	/**
	 * Asks what happened to the charge made under a provider idempotency key, without
	 * ever charging (docs/design.md section 5, reconciliation).
	 * @param providerIdempotencyKey the key the charge was (or would have been) sent with
	 * @return {@link GatewayResult.Approved} or {@link GatewayResult.Declined} when the
	 * provider has the charge; {@link GatewayResult.NotAttempted} when it confirms it has
	 * no charge under the key; {@link GatewayResult.Unknown} when it could not be asked
	 */
	GatewayResult lookup(String providerIdempotencyKey);

	/**
	 * Refunds once per provider idempotency key (docs/design.md section 8).
	 * @param request what to refund, and of which charge
	 * @return {@link GatewayResult.Approved} with the provider's id of the refund,
	 * {@link GatewayResult.Declined} when the provider refuses it for good,
	 * {@link GatewayResult.NotAttempted} when it refused before processing (nothing
	 * refunded), {@link GatewayResult.Unknown} when the outcome is unknown; never
	 * exceptions
	 */
	GatewayResult refund(RefundRequest request);

	/**
	 * Asks what happened to the refund made under a provider idempotency key, without
	 * ever refunding (reconciliation).
	 * @param providerIdempotencyKey the key the refund was (or would have been) sent with
	 * @return the refund's outcome as {@link #refund} would give it;
	 * {@link GatewayResult.NotAttempted} when the provider confirms it has no refund
	 * under the key; {@link GatewayResult.Unknown} when it could not be asked
	 */
	GatewayResult lookupRefund(String providerIdempotencyKey);

	/**
	 * The longest one {@link #charge} or {@link #refund} call can take before the adapter
	 * gives up (client timeout times attempts). The idempotency lease must be longer, or
	 * a slow call could outlive its lease (docs/design.md section 4); Payonce refuses to
	 * start otherwise.
	 * @return the worst-case duration of a charge call
	 */
	Duration worstCaseCallDuration();

}
