package dev.payonce.provider;

import java.util.Currency;

/**
 * An amount of a payment: integer minor units of an ISO 4217 currency (docs/design.md
 * section 2). Never a floating-point number, never rounded.
 *
 * @param minorUnits the amount in the currency's smallest unit, 1 to
 * {@value #MAX_MINOR_UNITS}
 * @param currency an ISO 4217 currency that has minor units (not, for example,
 * {@code XAU} or {@code XXX})
 */
public record Money(long minorUnits, Currency currency) {

	/** The largest amount accepted, in minor units. */
	public static final long MAX_MINOR_UNITS = 99_999_999_999L;

	/**
	 * Checks the range and the currency.
	 * @throws IllegalArgumentException if the amount is outside 1 to
	 * {@value #MAX_MINOR_UNITS} or the currency has no minor units
	 */
	public Money {
		if (minorUnits < 1 || minorUnits > MAX_MINOR_UNITS) {
			throw new IllegalArgumentException(
					"Amount must be 1-" + MAX_MINOR_UNITS + " minor units, got " + minorUnits);
		}
		if (currency.getDefaultFractionDigits() < 0) {
			throw new IllegalArgumentException("Currency " + currency + " has no minor units");
		}
	}

}
