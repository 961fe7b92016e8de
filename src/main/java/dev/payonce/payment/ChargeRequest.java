package dev.payonce.payment;

/**
 * What Payonce asks the provider to charge.
 *
 * @param providerIdempotencyKey the key the provider deduplicates by, derived from the
 * payment id ({@link PaymentId#providerIdempotencyKey()})
 * @param amount the amount in minor units
 * @param paymentMethod the provider's payment method token, for example
 * {@code pm_card_visa}
 * @param orderId the client's order id, passed as a description
 */
public record ChargeRequest(String providerIdempotencyKey, Money amount, String paymentMethod, String orderId) {

}
