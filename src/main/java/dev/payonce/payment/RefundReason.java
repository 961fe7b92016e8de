package dev.payonce.payment;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * Why a refund is made, as the client names it (after Stripe's refund reasons).
 */
public enum RefundReason {

	/** The payment was a duplicate of another. */
	DUPLICATE,

	/** The payment was fraudulent. */
	FRAUDULENT,

	/** The customer asked for the refund. */
	REQUESTED_BY_CUSTOMER;

	/**
	 * The reason's wire name.
	 * @return for example {@code requested_by_customer}
	 */
	public String wireName() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * A reason by its exact wire name.
	 * @param wireName for example {@code duplicate}; case-sensitive
	 * @return the reason, or empty if there is none of that name
	 */
	public static Optional<RefundReason> fromWireName(String wireName) {
		return Arrays.stream(values()).filter((reason) -> reason.wireName().equals(wireName)).findFirst();
	}

}
