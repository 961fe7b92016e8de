package dev.payonce.gateway.stripe;

import java.util.Currency;

import org.junit.jupiter.api.Test;

import dev.payonce.provider.AmountLimits;
import dev.payonce.provider.Money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Stripe's currency table (https://docs.stripe.com/currencies) against ISO 4217 minor
 * units: one test per class of currency and per special case.
 */
class StripeAmountsTests {

	@Test
	void twoDecimalCurrencyCrossesUnchanged() {
		assertThat(StripeAmounts.toStripe(money(1050, "USD"))).isEqualTo(1050);
		assertThat(StripeAmounts.toMinorUnits(1050L, "usd")).isEqualTo(1050);
		assertThat(StripeAmounts.limits(currency("EUR"))).isEqualTo(new AmountLimits(1, 99_999_999));
	}

	@Test
	void zeroDecimalCurrencyCrossesUnchanged() {
		assertThat(StripeAmounts.toStripe(money(500, "JPY"))).isEqualTo(500);
		assertThat(StripeAmounts.toMinorUnits(500L, "jpy")).isEqualTo(500);
		assertThat(StripeAmounts.limits(currency("KRW"))).isEqualTo(new AmountLimits(1, 99_999_999));
	}

	@Test
	void icelandicKronaIsSentInHundredths() {
		// 500 krónur: Stripe's amount 50000; sending 500 charged 5 krónur.
		assertThat(StripeAmounts.toStripe(money(500, "ISK"))).isEqualTo(50_000);
		assertThat(StripeAmounts.toMinorUnits(50_000L, "isk")).isEqualTo(500);
		assertThat(StripeAmounts.limits(currency("ISK"))).isEqualTo(new AmountLimits(1, 999_999));
	}

	@Test
	void icelandicKronaFromStripeThatIsNoWholeKronaHasNoMinorUnits() {
		assertThat(StripeAmounts.toMinorUnits(150L, "isk")).isNull();
	}

	@Test
	void ugandanShillingIsSentInHundredths() {
		assertThat(StripeAmounts.toStripe(money(60_000, "UGX"))).isEqualTo(6_000_000);
		assertThat(StripeAmounts.toMinorUnits(6_000_000L, "ugx")).isEqualTo(60_000);
		assertThat(StripeAmounts.toMinorUnits(6_000_050L, "ugx")).isNull();
		assertThat(StripeAmounts.limits(currency("UGX"))).isEqualTo(new AmountLimits(1, 999_999));
	}

	@Test
	void hungarianForintChargesInTwoDecimalsAsInIso() {
		// Zero-decimal at Stripe only for payouts.
		assertThat(StripeAmounts.toStripe(money(1045, "HUF"))).isEqualTo(1045);
		assertThat(StripeAmounts.toMinorUnits(1045L, "huf")).isEqualTo(1045);
		assertThat(StripeAmounts.limits(currency("HUF"))).isEqualTo(new AmountLimits(1, 99_999_999));
	}

	@Test
	void newTaiwanDollarChargesInTwoDecimalsAsInIso() {
		assertThat(StripeAmounts.toStripe(money(80_045, "TWD"))).isEqualTo(80_045);
		assertThat(StripeAmounts.toMinorUnits(80_045L, "twd")).isEqualTo(80_045);
		assertThat(StripeAmounts.limits(currency("TWD"))).isEqualTo(new AmountLimits(1, 99_999_999));
	}

	@Test
	void threeDecimalCurrencyMustEndInZero() {
		for (String code : new String[] { "BHD", "JOD", "KWD", "OMR", "TND" }) {
			assertThat(StripeAmounts.limits(currency(code))).as(code).isEqualTo(new AmountLimits(10, 99_999_990));
		}
		assertThat(StripeAmounts.toStripe(money(5120, "KWD"))).isEqualTo(5120);
		assertThat(StripeAmounts.toMinorUnits(5120L, "kwd")).isEqualTo(5120);
		assertThatIllegalArgumentException().isThrownBy(() -> StripeAmounts.toStripe(money(5125, "KWD")))
			.withMessageContaining("a multiple of 10");
	}

	@Test
	void malagasyAriaryIsZeroDecimalAtStripeButTwoDecimalInIso() {
		assertThat(StripeAmounts.limits(currency("MGA"))).isEqualTo(new AmountLimits(100, 9_999_999_900L));
		assertThat(StripeAmounts.toStripe(money(1500, "MGA"))).isEqualTo(15);
		assertThat(StripeAmounts.toMinorUnits(15L, "mga")).isEqualTo(1500);
		assertThatIllegalArgumentException().isThrownBy(() -> StripeAmounts.toStripe(money(150, "MGA")));
	}

	@Test
	void threeDecimalIsoCurrencyStripeDoesNotListIsSentInTwoDecimals() {
		// IQD: three decimals in ISO 4217, not in Stripe's three-decimal list.
		assertThat(StripeAmounts.limits(currency("IQD"))).isEqualTo(new AmountLimits(10, 999_999_990));
		assertThat(StripeAmounts.toStripe(money(1230, "IQD"))).isEqualTo(123);
	}

	@Test
	void amountOverEightDigitsAtStripeIsRefused() {
		assertThat(StripeAmounts.limits(currency("USD")).allows(99_999_999)).isTrue();
		assertThat(StripeAmounts.limits(currency("USD")).allows(100_000_000)).isFalse();
		// A million krónur is 100000000 at Stripe: nine digits.
		assertThat(StripeAmounts.limits(currency("ISK")).allows(1_000_000)).isFalse();
		assertThatIllegalArgumentException().isThrownBy(() -> StripeAmounts.toStripe(money(100_000_000, "USD")));
	}

	@Test
	void indonesianRupiahTakesTwelveDigitsUpToPayoncesOwnMaximum() {
		assertThat(StripeAmounts.limits(currency("IDR"))).isEqualTo(new AmountLimits(1, Money.MAX_MINOR_UNITS));
		assertThat(StripeAmounts.toStripe(money(99_999_999_999L, "IDR"))).isEqualTo(99_999_999_999L);
	}

	@Test
	void absentOrUnknownAmountOrCurrencyFromStripeHasNoMinorUnits() {
		assertThat(StripeAmounts.toMinorUnits(null, "usd")).isNull();
		assertThat(StripeAmounts.toMinorUnits(100L, null)).isNull();
		assertThat(StripeAmounts.toMinorUnits(100L, "zzz")).isNull();
		assertThat(StripeAmounts.toMinorUnits(100L, "xau")).isNull();
		assertThat(StripeAmounts.toMinorUnits(100L, "usdollar")).isNull();
	}

	private static Money money(long minorUnits, String code) {
		return new Money(minorUnits, currency(code));
	}

	private static Currency currency(String code) {
		return Currency.getInstance(code);
	}

}
