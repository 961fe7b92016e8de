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
	 * The provider idempotency key of one key generation: derived from the payment id, so
	 * that a charge re-sent by a takeover or a retry is deduplicated by the provider
	 * (docs/design.md section 1). The generation moves on only after a lookup proved the
	 * provider has no charge for this payment
	 * ({@link Payment#startNewProviderKeyGeneration}).
	 * @param generation the payment's provider key generation, 1 or more
	 * @return {@code payonce-payment-<uuid>} for generation 1 (the key every payment made
	 * before generations existed was charged with), {@code payonce-payment-<uuid>-g<n>}
	 * for generation n
	 * @throws IllegalArgumentException if {@code generation} is below 1
	 */
	public String providerIdempotencyKey(int generation) {
		if (generation < 1) {
			throw new IllegalArgumentException("A provider key generation starts at 1, got " + generation);
		}
		String key = "payonce-payment-" + this.value;
		return (generation == 1) ? key : key + "-g" + generation;
	}

	@Override
	public String toString() {
		return this.value.toString();
	}

}
