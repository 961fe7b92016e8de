package dev.payonce.gateway.stripe;

/**
 * Whether a Stripe secret key works on live or test data, read from its prefix as Stripe
 * documents it (https://docs.stripe.com/keys: {@code sk_live_} and {@code rk_live_} keys
 * are live, {@code sk_test_} and {@code rk_test_} test). Objects and events carry the
 * same distinction as {@code livemode} (https://docs.stripe.com/api/events/object), and
 * an event in the other mode never settles anything here (docs/design.md section 10).
 */
enum StripeKeyMode {

	/** A test-mode key: only test data. */
	TEST,

	/** A live-mode key: real money. */
	LIVE;

	/**
	 * The mode of a secret or restricted key.
	 * @param secretKey the key; never logged or put into a message
	 * @return its mode
	 * @throws IllegalStateException if the key has none of Stripe's four prefixes
	 */
	static StripeKeyMode of(String secretKey) {
		if (secretKey.startsWith("sk_live_") || secretKey.startsWith("rk_live_")) {
			return LIVE;
		}
		if (secretKey.startsWith("sk_test_") || secretKey.startsWith("rk_test_")) {
			return TEST;
		}
		throw new IllegalStateException("payonce.gateway.stripe.secret-key is not a Stripe secret or restricted key: "
				+ "it starts with none of sk_live_, rk_live_, sk_test_, rk_test_");
	}

	/**
	 * Whether an object or event of the given {@code livemode} belongs to this mode.
	 * @param livemode Stripe's {@code livemode}, or {@code null} if absent
	 * @return true only if it is present and equals this mode
	 */
	boolean matches(@org.jspecify.annotations.Nullable Boolean livemode) {
		return livemode != null && livemode == (this == LIVE);
	}

}
