package dev.payonce.gateway.stripe;

import java.math.BigInteger;
import java.util.Currency;
import java.util.Locale;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.payonce.provider.AmountLimits;
import dev.payonce.provider.Money;

/**
 * The one place where an amount crosses between Payonce's ISO 4217 minor units and
 * Stripe's {@code amount} (docs/design.md section 5, "Amounts at the provider"). Every
 * amount the adapter sends (charges, refunds) and every amount it reads back (webhook
 * events' objects) goes through here; nothing rounds.
 *
 * <p>
 * The rules, from Stripe's "Supported currencies" page
 * (https://docs.stripe.com/currencies, sections "Zero-decimal currencies", "Three-decimal
 * currencies", "Special cases" and "Minimum and maximum charge amounts") and its support
 * note "Deprecation of fractional ISK charges and refunds"
 * (https://support.stripe.com/questions/deprecation-of-fractional-isk-charges-and-refunds):
 * <ul>
 * <li>unless listed below, a currency has two decimals at Stripe;</li>
 * <li>zero-decimal at Stripe: BIF, CLP, DJF, GNF, JPY, KMF, KRW, MGA, PYG, RWF, VND, VUV,
 * XAF, XOF, XPF (MGA has two decimals in ISO 4217, so only whole ariary can be
 * sent);</li>
 * <li>three-decimal, the last digit 0 ("these API calls require the least-significant
 * (last) digit to be 0", for PaymentIntents and Refunds alike): BHD, JOD, KWD, OMR,
 * TND;</li>
 * <li>ISK and UGX are zero-decimal in ISO 4217 but "to maintain backwards compatibility,
 * you must pass in amounts with two decimals ... The amount value must be evenly
 * divisible by 100": one ISO unit is 100 at Stripe ("ISK will remain a two-decimal
 * currency in the Stripe API, and an ISK amount of 100 will continue to represent 1
 * króna");</li>
 * <li>HUF and TWD are zero-decimal only for payouts, "even though you can charge
 * two-decimal amounts": two decimals for charges and refunds, as in ISO 4217;</li>
 * <li>{@code amount} has at most eight digits (99999999), twelve for IDR.</li>
 * </ul>
 * Stripe's minimum charge amount depends on the account's settlement currency, which
 * Payonce does not know; it is left to Stripe's answer.
 */
final class StripeAmounts {

	/** Stripe's page of these rules. */
	static final String CURRENCIES_PAGE = "https://docs.stripe.com/currencies";

	private static final Set<String> ZERO_DECIMAL = Set.of("BIF", "CLP", "DJF", "GNF", "JPY", "KMF", "KRW", "MGA",
			"PYG", "RWF", "VND", "VUV", "XAF", "XOF", "XPF");

	private static final Set<String> THREE_DECIMAL = Set.of("BHD", "JOD", "KWD", "OMR", "TND");

	private static final Set<String> WHOLE_UNITS_IN_TWO_DECIMALS = Set.of("ISK", "UGX");

	private static final long MAX_AMOUNT = 99_999_999L;

	private static final long MAX_AMOUNT_IDR = 999_999_999_999L;

	private StripeAmounts() {
	}

	/**
	 * How Stripe writes one currency's amounts, in Stripe's units.
	 *
	 * @param exponent Stripe's number of decimals (0, 2 or 3)
	 * @param step every amount is a multiple of it (1, 10 or 100)
	 * @param maximum the largest amount
	 */
	record Representation(int exponent, long step, long maximum) {
	}

	/**
	 * Stripe's representation of a currency.
	 * @param currency an ISO 4217 currency
	 * @return its exponent, step and maximum at Stripe
	 */
	static Representation representation(Currency currency) {
		String code = currency.getCurrencyCode();
		long maximum = "IDR".equals(code) ? MAX_AMOUNT_IDR : MAX_AMOUNT;
		if (ZERO_DECIMAL.contains(code)) {
			return new Representation(0, 1, maximum);
		}
		if (THREE_DECIMAL.contains(code)) {
			return new Representation(3, 10, maximum);
		}
		if (WHOLE_UNITS_IN_TWO_DECIMALS.contains(code)) {
			return new Representation(2, 100, maximum);
		}
		return new Representation(2, 1, maximum);
	}

	/**
	 * The amounts of a currency Stripe can take, in ISO 4217 minor units.
	 * @param currency an ISO 4217 currency with minor units
	 * @return the step and the maximum (capped at {@link Money#MAX_MINOR_UNITS})
	 */
	static AmountLimits limits(Currency currency) {
		Representation stripe = representation(currency);
		int shift = stripe.exponent() - currency.getDefaultFractionDigits();
		long step;
		long maximum;
		if (shift >= 0) {
			// One minor unit is `scale` at Stripe: the step in minor units is what makes
			// a multiple of Stripe's step (ISK: 100 / 100 = 1 krona).
			long scale = pow10(shift);
			step = stripe.step() / gcd(stripe.step(), scale);
			maximum = stripe.maximum() / scale;
		}
		else {
			// Stripe is coarser: only multiples of `scale` minor units exist there
			// (MGA: 100 iraimbilanja, one ariary).
			long scale = pow10(-shift);
			step = stripe.step() * scale;
			maximum = Math.multiplyExact(stripe.maximum(), scale);
		}
		maximum = Math.min(maximum, Money.MAX_MINOR_UNITS);
		return new AmountLimits(step, maximum - maximum % step);
	}

	/**
	 * An amount as Stripe's {@code amount} parameter.
	 * @param money the amount in ISO 4217 minor units
	 * @return the same amount in Stripe's units (ISK 500 krónur: 50000)
	 * @throws IllegalArgumentException if Stripe cannot take the amount
	 * ({@link #limits}); callers refuse such amounts before they are stored
	 */
	static long toStripe(Money money) {
		AmountLimits limits = limits(money.currency());
		if (!limits.allows(money.minorUnits())) {
			throw new IllegalArgumentException(money.currency() + " " + money.minorUnits()
					+ " minor units is not an amount Stripe takes: a multiple of " + limits.multipleOf() + " up to "
					+ limits.maximum() + " (" + CURRENCIES_PAGE + ")");
		}
		int shift = representation(money.currency()).exponent() - money.currency().getDefaultFractionDigits();
		return (shift >= 0) ? Math.multiplyExact(money.minorUnits(), pow10(shift)) : money.minorUnits() / pow10(-shift);
	}

	/**
	 * An amount Stripe reported, in ISO 4217 minor units.
	 * @param amount Stripe's {@code amount}, or {@code null} if absent
	 * @param currency Stripe's {@code currency} (lower case), or {@code null} if absent
	 * @return the amount in minor units (ISK {@code 50000}: 500), or {@code null} if
	 * either is absent, the currency is not ISO 4217 with minor units, or the amount is
	 * not a whole number of minor units (ISK {@code 50}: half a króna)
	 */
	static @Nullable Long toMinorUnits(@Nullable Long amount, @Nullable String currency) {
		if (amount == null || currency == null || currency.length() != 3) {
			return null;
		}
		Currency iso;
		try {
			iso = Currency.getInstance(currency.toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
		if (iso.getDefaultFractionDigits() < 0) {
			return null;
		}
		int shift = representation(iso).exponent() - iso.getDefaultFractionDigits();
		if (shift >= 0) {
			long scale = pow10(shift);
			return (amount % scale == 0) ? amount / scale : null;
		}
		BigInteger minorUnits = BigInteger.valueOf(amount).multiply(BigInteger.valueOf(pow10(-shift)));
		return (minorUnits.bitLength() < Long.SIZE) ? minorUnits.longValueExact() : null;
	}

	private static long pow10(int exponent) {
		long value = 1;
		for (int i = 0; i < exponent; i++) {
			value = Math.multiplyExact(value, 10);
		}
		return value;
	}

	private static long gcd(long a, long b) {
		return (b == 0) ? a : gcd(b, a % b);
	}

}
