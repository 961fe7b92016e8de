package io.payonce.client;

import java.util.Objects;
import java.util.UUID;

/**
 * The service's id of a payment.
 *
 * @param value the UUID
 */
public record PaymentId(UUID value) {

	/** Checks the value is present. */
	public PaymentId {
		Objects.requireNonNull(value, "A payment id must not be null");
	}

	/**
	 * Reads an id from its text.
	 * @param text a UUID
	 * @return the id
	 * @throws IllegalArgumentException if it is not a UUID
	 */
	public static PaymentId of(String text) {
		return new PaymentId(UUID.fromString(text));
	}

	@Override
	public String toString() {
		return this.value.toString();
	}

}
