package dev.payonce.history;

/**
 * What a provider's own ledger says of Payonce's payments and refunds at the end of a
 * soak, by Payonce's ids (the ids its provider idempotency keys and metadata carry).
 */
public interface ProviderLedger {

	/**
	 * The provider's successful charges made for a payment, under any of its provider
	 * idempotency keys.
	 * @param paymentId Payonce's payment id
	 * @return how many
	 */
	long charges(String paymentId);

	/**
	 * The provider's successful refunds made for one of Payonce's refunds.
	 * @param refundId Payonce's refund id
	 * @return how many
	 */
	long refunds(String refundId);

	/**
	 * What the provider refunded of a payment's charges in all.
	 * @param paymentId Payonce's payment id
	 * @return the sum, in minor units
	 */
	long refunded(String paymentId);

}
