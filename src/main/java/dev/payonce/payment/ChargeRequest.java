package dev.payonce.payment;

import org.jspecify.annotations.Nullable;

/**
 * What Payonce asks the provider to charge; the same on every attempt of one provider key
 * generation, so the provider's idempotency layer sees the same parameters under the key.
 *
 * @param paymentId Payonce's payment id; adapters attach it to the provider's charge (for
 * Stripe, as metadata) so that a lookup can find the charge without the provider's id
 * @param providerIdempotencyKey the key the provider deduplicates by, derived from the
 * payment id and its key generation ({@link PaymentId#providerIdempotencyKey(int)})
 * @param amount the amount in minor units
 * @param paymentMethod the provider's payment method token, for example
 * {@code pm_card_visa}
 * @param orderId the client's order id, passed as a description
 * @param providerReference the provider's id of the payment's charge when an earlier
 * answer named it while the payment is still {@code PENDING} (docs/design.md section 5),
 * else {@code null}: a lookup then reads that charge by id, which is consistent, instead
 * of searching
 */
public record ChargeRequest(PaymentId paymentId, String providerIdempotencyKey, Money amount, String paymentMethod,
		String orderId, @Nullable String providerReference) {

	/**
	 * A charge whose provider reference is not known.
	 * @param paymentId Payonce's payment id
	 * @param providerIdempotencyKey the provider idempotency key
	 * @param amount the amount in minor units
	 * @param paymentMethod the provider's payment method token
	 * @param orderId the client's order id
	 */
	public ChargeRequest(PaymentId paymentId, String providerIdempotencyKey, Money amount, String paymentMethod,
			String orderId) {
		this(paymentId, providerIdempotencyKey, amount, paymentMethod, orderId, null);
	}

}
