package dev.payonce.payment;

import java.time.Duration;

/**
 * The port to a payment provider (DESIGN.md section 5). Adapters live in
 * {@code dev.payonce.gateway.*}; nothing outside an adapter sees a provider's own types.
 *
 * <p>
 * Implementations must deduplicate by {@link ChargeRequest#providerIdempotencyKey()}: a
 * second charge with the same key returns the first charge's result and charges nothing.
 * They are called outside any Payonce database transaction and must be safe to call
 * concurrently.
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
	 * ever charging (DESIGN.md section 5, reconciliation).
	 * @param providerIdempotencyKey the key the charge was (or would have been) sent with
	 * @return {@link GatewayResult.Approved} or {@link GatewayResult.Declined} when the
	 * provider has the charge; {@link GatewayResult.NotAttempted} when it confirms it has
	 * no charge under the key; {@link GatewayResult.Unknown} when it could not be asked
	 */
	GatewayResult lookup(String providerIdempotencyKey);

	/**
	 * The longest one {@link #charge} call can take before the adapter gives up (client
	 * timeout times attempts). The idempotency lease must be longer, or a slow call could
	 * outlive its lease (DESIGN.md section 4); Payonce refuses to start otherwise.
	 * @return the worst-case duration of a charge call
	 */
	Duration worstCaseCallDuration();

}
