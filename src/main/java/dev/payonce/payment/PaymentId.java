package dev.payonce.payment;

import java.util.UUID;

/**
 * Identifier of a payment, chosen by Payonce when the idempotency key is first claimed
 * and kept across every attempt.
 *
 * @param value the UUID
 */
public record PaymentId(UUID value) {

	/**
	 * A new random payment id.
	 * @return the id
	 */
	public static PaymentId random() {
		return new PaymentId(UUID.randomUUID());
	}

	@Override
	public String toString() {
		return this.value.toString();
	}

}
