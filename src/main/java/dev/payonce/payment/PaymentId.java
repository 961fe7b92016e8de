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

	/**
	 * The provider idempotency key: derived from the payment id, so that a charge re-sent
	 * by a takeover or a retry is deduplicated by the provider (docs/design.md section
	 * 1).
	 * @return {@code payonce-payment-<uuid>}
	 */
	public String providerIdempotencyKey() {
		return "payonce-payment-" + this.value;
	}

	@Override
	public String toString() {
		return this.value.toString();
	}

}
