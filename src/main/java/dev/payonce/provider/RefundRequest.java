package dev.payonce.provider;

import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * What Payonce asks the provider to refund; the same on every attempt, so the provider's
 * idempotency layer sees the same parameters under the key.
 *
 * @param refundId Payonce's refund id (the refund module's {@code RefundId}); adapters
 * attach it to the provider's refund (for Stripe, as metadata) so that a lookup can find
 * the refund without the provider's id
 * @param providerIdempotencyKey the key the provider deduplicates by, derived from the
 * refund id and its key generation (the refund module's
 * {@link ProviderAttempt#providerIdempotencyKey(String, java.util.UUID, int)})
 * @param chargeReference the provider's id of the charge to refund (for Stripe, the
 * PaymentIntent)
 * @param amount the amount to refund in minor units of the charge's currency
 * @param reason the client's reason, if any; adapters pass it on where the provider takes
 * one
 */
public record RefundRequest(UUID refundId, String providerIdempotencyKey, String chargeReference, Money amount,
		@Nullable RefundReason reason) {

}
