package dev.payonce.gateway.stripe;

import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * Which of a Stripe account's two worlds a secret key acts in. Stripe keeps test-mode and
 * live-mode objects apart: a test key ({@code sk_test_}, {@code rk_test_}) only sees and
 * makes test objects and never moves money; a live key ({@code sk_live_},
 * {@code rk_live_}) moves real money. Every object and event carries the mode it was made
 * in as {@code livemode} (Stripe's API reference, "API keys",
 * https://docs.stripe.com/keys, and "Testing", https://docs.stripe.com/testing).
 */
public enum StripeMode {

	/** Test mode: {@code livemode: false}; no money moves. */
	TEST,

	/** Live mode: {@code livemode: true}; real money moves. */
	LIVE;

	/**
	 * The value Stripe's objects and events of this mode carry in {@code livemode}.
	 * @return {@code true} for {@link #LIVE}
	 */
	public boolean livemode() {
		return this == LIVE;
	}

	/**
	 * The mode a secret or restricted key acts in, read from its prefix.
	 * @param key the key as configured
	 * @return the mode, or empty if the key is none of {@code sk_test_},
	 * {@code sk_live_}, {@code rk_test_}, {@code rk_live_} (a publishable key
	 * {@code pk_...} included: it cannot charge)
	 */
	public static Optional<StripeMode> ofKey(@Nullable String key) {
		if (key == null) {
			return Optional.empty();
		}
		if (key.startsWith("sk_test_") || key.startsWith("rk_test_")) {
			return Optional.of(TEST);
		}
		if (key.startsWith("sk_live_") || key.startsWith("rk_live_")) {
			return Optional.of(LIVE);
		}
		return Optional.empty();
	}

}
