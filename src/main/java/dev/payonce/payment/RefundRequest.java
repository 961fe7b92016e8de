package dev.payonce.payment;

/**
 * What Payonce asks the provider to refund.
 *
 * @param providerIdempotencyKey the key the provider deduplicates by, derived from the
 * refund id ({@link RefundId#providerIdempotencyKey()})
 * @param chargeReference the provider's id of the charge to refund
 * @param amount the amount to refund in minor units of the charge's currency
 */
public record RefundRequest(String providerIdempotencyKey, String chargeReference, Money amount) {

}
