package io.payonce.client;

import java.util.Objects;
import java.util.UUID;

/**
 * The service's id of a refund.
 *
 * @param value the UUID
 */
public record RefundId(UUID value) {

	/** Checks the value is present. */
	public RefundId {
		Objects.requireNonNull(value, "A refund id must not be null");
	}

	/**
	 * Reads an id from its text.
	 * @param text a UUID
	 * @return the id
	 * @throws IllegalArgumentException if it is not a UUID
	 */
	public static RefundId of(String text) {
		return new RefundId(UUID.fromString(text));
	}

	@Override
	public String toString() {
		return this.value.toString();
	}

}
