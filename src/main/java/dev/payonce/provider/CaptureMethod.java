package dev.payonce.provider;

import java.util.Locale;
import java.util.Optional;

/**
 * When a payment's money is taken: at once ({@link #AUTOMATIC}, the default), or held by
 * an authorization and taken later by one or more captures ({@link #MANUAL};
 * docs/design.md section 15). Stripe's {@code capture_method}
 * (https://docs.stripe.com/payments/place-a-hold-on-a-payment-method) names the same two.
 */
public enum CaptureMethod {

	/** Charge at once: the provider authorizes and captures in one step. */
	AUTOMATIC,

	/**
	 * Authorize only: the money is held until a capture takes it or a void releases it.
	 */
	MANUAL;

	/**
	 * The name in JSON, in the database and at the provider.
	 * @return {@code automatic} or {@code manual}
	 */
	public String wireName() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * The method a wire name names.
	 * @param wireName {@code automatic} or {@code manual}, lower case only
	 * @return the method, or empty for any other text
	 */
	public static Optional<CaptureMethod> fromWireName(String wireName) {
		for (CaptureMethod method : values()) {
			if (method.wireName().equals(wireName)) {
				return Optional.of(method);
			}
		}
		return Optional.empty();
	}

}
