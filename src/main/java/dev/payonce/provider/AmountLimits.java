package dev.payonce.provider;

/**
 * Which amounts of one currency a provider can charge or refund, in ISO 4217 minor units
 * (docs/design.md section 5, "Amounts at the provider"): a multiple of
 * {@link #multipleOf()}, at most {@link #maximum()}. A provider whose own representation
 * of a currency is coarser than ISO's, or that requires a last digit of 0, states it
 * here, so that Payonce refuses such an amount before it stores or sends anything.
 *
 * @param multipleOf the step, in minor units, 1 or more (Stripe, KWD: 10)
 * @param maximum the largest amount, in minor units, a multiple of {@code multipleOf}
 * (Stripe, USD: 99999999)
 */
public record AmountLimits(long multipleOf, long maximum) {

	/** Any amount {@link Money} allows. */
	public static final AmountLimits ANY = new AmountLimits(1, Money.MAX_MINOR_UNITS);

	/**
	 * Checks the step and the maximum.
	 * @throws IllegalArgumentException if {@code multipleOf} is below 1, or
	 * {@code maximum} is below it or not a multiple of it
	 */
	public AmountLimits {
		if (multipleOf < 1 || maximum < multipleOf || maximum % multipleOf != 0) {
			throw new IllegalArgumentException(
					"Amount limits need a step of 1 or more and a maximum that is a multiple "
							+ "of it, got multipleOf " + multipleOf + ", maximum " + maximum);
		}
	}

	/**
	 * Whether an amount is within these limits.
	 * @param minorUnits the amount, in minor units
	 * @return {@code true} if it is a multiple of {@link #multipleOf()} and at most
	 * {@link #maximum()}
	 */
	public boolean allows(long minorUnits) {
		return minorUnits % this.multipleOf == 0 && minorUnits <= this.maximum;
	}

}
