package dev.payonce.provider;

import java.time.Instant;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * What Payonce asks the provider to charge; the same on every attempt of one provider key
 * generation, so the provider's idempotency layer sees the same parameters under the key.
 *
 * @param paymentId Payonce's payment id (the payment module's {@code PaymentId});
 * adapters attach it to the provider's charge (for Stripe, as metadata) so that a lookup
 * can find the charge without the provider's id
 * @param providerIdempotencyKey the key the provider deduplicates by, derived from the
 * payment id and its key generation (the payment module's
 * {@link ProviderAttempt#providerIdempotencyKey(String, java.util.UUID, int)})
 * @param amount the amount in minor units
 * @param paymentMethod the provider's payment method token, for example
 * {@code pm_card_visa}
 * @param orderId the client's order id, passed as a description
 * @param providerReference the provider's id of the payment's charge when an earlier
 * answer named it while the payment is still {@code PENDING} (docs/design.md section 5),
 * else {@code null}: a lookup then reads that charge by id, which is consistent, instead
 * of searching
 * @param createdAt when the payment was created: no charge call for it was sent before
 * this instant, so a lookup that proves absence need only read the provider's charges
 * created since then (allowing for clock skew, docs/design.md section 5)
 */
public record ChargeRequest(UUID paymentId, String providerIdempotencyKey, Money amount, String paymentMethod,
		String orderId, @Nullable String providerReference, Instant createdAt) {

	/**
	 * A charge whose payment's creation time is not known: a lookup that proves absence
	 * then reads every charge the provider holds (from {@link Instant#EPOCH}).
	 * @param paymentId Payonce's payment id
	 * @param providerIdempotencyKey the provider idempotency key
	 * @param amount the amount in minor units
	 * @param paymentMethod the provider's payment method token
	 * @param orderId the client's order id
	 * @param providerReference the provider's id of the charge, or {@code null}
	 */
	public ChargeRequest(UUID paymentId, String providerIdempotencyKey, Money amount, String paymentMethod,
			String orderId, @Nullable String providerReference) {
		this(paymentId, providerIdempotencyKey, amount, paymentMethod, orderId, providerReference, Instant.EPOCH);
	}

	/**
	 * A charge whose provider reference is not known.
	 * @param paymentId Payonce's payment id
	 * @param providerIdempotencyKey the provider idempotency key
	 * @param amount the amount in minor units
	 * @param paymentMethod the provider's payment method token
	 * @param orderId the client's order id
	 */
	public ChargeRequest(UUID paymentId, String providerIdempotencyKey, Money amount, String paymentMethod,
			String orderId) {
		this(paymentId, providerIdempotencyKey, amount, paymentMethod, orderId, null, Instant.EPOCH);
	}

}
