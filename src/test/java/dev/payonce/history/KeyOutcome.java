package dev.payonce.history;

/**
 * What the provider's ledger and the database hold at the end of a soak for one
 * idempotency key: of a payment, of a refund (whose "charges" are the provider's refunds
 * of it, and whose payment's key carries what was refunded), of a capture (whose
 * "charges" are the provider's captures of it) or of a void (the provider's voids of it).
 *
 * @param charges the provider's successful charges for the key's payment (or refunds of
 * the key's refund, captures of its capture, voids of its void), under any provider key
 * generation
 * @param paid the payment's amount if it was charged (for a manual payment: authorized),
 * in minor units (0 otherwise)
 * @param refunded what the provider refunded of the payment in all, in minor units
 * @param inProgress whether the key's idempotency record is still {@code IN_PROGRESS}
 * @param holds what captures and voids left of a manual payment, on the key that created
 * the payment ({@link Holds#NONE} on every other key)
 */
public record KeyOutcome(long charges, long paid, long refunded, boolean inProgress, Holds holds) {

	public KeyOutcome {
		if (charges < 0 || paid < 0 || refunded < 0) {
			throw new IllegalArgumentException(
					"counts and amounts must not be negative: " + charges + ", " + paid + ", " + refunded);
		}
		if (holds == null) {
			throw new IllegalArgumentException("holds must be given: Holds.NONE for none");
		}
	}

	/**
	 * The outcome of a key that no capture or void concerns.
	 * @param charges the provider's successful charges (or refunds of the key's refund)
	 * @param paid the payment's amount if it was charged, in minor units
	 * @param refunded what the provider refunded of the payment, in minor units
	 * @param inProgress whether the key's idempotency record is still in progress
	 */
	public KeyOutcome(long charges, long paid, long refunded, boolean inProgress) {
		this(charges, paid, refunded, inProgress, Holds.NONE);
	}

	/** A key of which the database holds no record and the provider nothing. */
	public static final KeyOutcome NOTHING = new KeyOutcome(0, 0, 0, false);

	/**
	 * The capture side of a key (docs/design.md section 15).
	 *
	 * @param capture whether the key names a capture: its {@code charges} count the
	 * provider's captures of it
	 * @param captured what the provider captured of the key's payment in all, in minor
	 * units
	 * @param capturesAfterVoid the provider's successful captures of the key's payment
	 * made after its successful void
	 * @param held whether the key's payment still holds a capture reservation or a void
	 * ({@code captures_in_flight}, {@code void_in_flight}) at the end
	 */
	public record Holds(boolean capture, long captured, long capturesAfterVoid, boolean held) {

		public Holds {
			if (captured < 0 || capturesAfterVoid < 0) {
				throw new IllegalArgumentException(
						"amounts and counts must not be negative: " + captured + ", " + capturesAfterVoid);
			}
		}

		/** A key no capture or void concerns. */
		public static final Holds NONE = new Holds(false, 0, 0, false);

		/** The key of a capture. */
		public static final Holds CAPTURE = new Holds(true, 0, 0, false);

	}

}
