package dev.payonce.payment;

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

}
