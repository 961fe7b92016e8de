package io.payonce.client;

/**
 * A payment's status. {@code PENDING} may still change; the others are final. The service
 * may add values (its compatibility rule): a value this version does not know is
 * {@link #UNRECOGNIZED} and treated as not final.
 */
public enum Status {

	/** The outcome is not settled yet. */
	PENDING,
	/** The provider charged or refunded. */
	SUCCEEDED,
	/** The provider declined. */
	DECLINED,
	/** Nothing was charged or refunded, for good. */
	FAILED,
	/** A value this version of the library does not know. */
	UNRECOGNIZED;

	/**
	 * Whether the status can no longer change.
	 * @return true for {@code SUCCEEDED}, {@code DECLINED} and {@code FAILED}
	 */
	public boolean isFinal() {
		return this == SUCCEEDED || this == DECLINED || this == FAILED;
	}

	static Status of(String value) {
		for (Status status : values()) {
			if (status != UNRECOGNIZED && status.name().equals(value)) {
				return status;
			}
		}
		return UNRECOGNIZED;
	}

}
