package dev.payonce.history;

/**
 * What a provider's own ledger says of Payonce's payments, refunds, captures and voids at
 * the end of a soak, by Payonce's ids (the ids its provider idempotency keys and metadata
 * carry).
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

	/**
	 * The provider's successful captures made for one of Payonce's captures
	 * (docs/design.md section 15); none for a provider ledger that holds no captures.
	 * @param captureId Payonce's capture id
	 * @return how many
	 */
	default long captures(String captureId) {
		return 0;
	}

	/**
	 * The provider's successful voids made for one of Payonce's voids.
	 * @param voidId Payonce's void id
	 * @return how many
	 */
	default long voids(String voidId) {
		return 0;
	}

	/**
	 * What the provider captured of a manual payment's charge in all.
	 * @param paymentId Payonce's payment id
	 * @return the sum, in minor units
	 */
	default long captured(String paymentId) {
		return 0;
	}

	/**
	 * The provider's successful captures of a payment's charge made after its successful
	 * void.
	 * @param paymentId Payonce's payment id
	 * @return how many
	 */
	default long capturesAfterVoid(String paymentId) {
		return 0;
	}

}
