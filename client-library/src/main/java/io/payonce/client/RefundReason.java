package io.payonce.client;

/** Why a refund is made, as the service (and Stripe) names it. */
public enum RefundReason {

	/** The payment was a duplicate. */
	DUPLICATE("duplicate"),
	/** The payment was fraudulent. */
	FRAUDULENT("fraudulent"),
	/** The customer asked for it. */
	REQUESTED_BY_CUSTOMER("requested_by_customer"),
	/** A value this version of the library does not know. */
	UNRECOGNIZED("");

	private final String wireValue;

	RefundReason(String wireValue) {
		this.wireValue = wireValue;
	}

	String wireValue() {
		if (this == UNRECOGNIZED) {
			throw new IllegalArgumentException("UNRECOGNIZED is not a reason to send");
		}
		return this.wireValue;
	}

	static RefundReason of(String value) {
		for (RefundReason reason : values()) {
			if (reason != UNRECOGNIZED && reason.wireValue.equals(value)) {
				return reason;
			}
		}
		return UNRECOGNIZED;
	}

}
