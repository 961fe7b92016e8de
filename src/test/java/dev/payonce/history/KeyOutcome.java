package dev.payonce.history;

/**
 * What the provider's ledger and the database hold at the end of a soak for one
 * idempotency key: of a payment, or of a refund (whose "charges" are the provider's
 * refunds of it, and whose payment's key carries what was refunded).
 *
 * @param charges the provider's successful charges for the key's payment (or refunds of
 * the key's refund), under any provider key generation
 * @param paid the payment's amount if it was charged, in minor units (0 otherwise)
 * @param refunded what the provider refunded of the payment in all, in minor units
 * @param inProgress whether the key's idempotency record is still {@code IN_PROGRESS}
 */
public record KeyOutcome(long charges, long paid, long refunded, boolean inProgress) {

	public KeyOutcome {
		if (charges < 0 || paid < 0 || refunded < 0) {
			throw new IllegalArgumentException(
					"counts and amounts must not be negative: " + charges + ", " + paid + ", " + refunded);
		}
	}

	/** A key of which the database holds no record and the provider nothing. */
	public static final KeyOutcome NOTHING = new KeyOutcome(0, 0, 0, false);

}
