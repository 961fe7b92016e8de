package dev.payonce.refund;

import java.util.UUID;

/**
 * Identifier of a refund, chosen by the idempotency engine when the key is first claimed
 * and kept across every attempt.
 *
 * @param value the UUID
 */
public record RefundId(UUID value) {

	/**
	 * The provider idempotency key of the first generation.
	 * @return {@code payonce-refund-<uuid>}
	 */
	public String providerIdempotencyKey() {
		return providerIdempotencyKey(1);
	}

	/**
	 * The provider idempotency key of one key generation: derived from the refund id, so
	 * that a refund re-sent by a takeover or a retry is deduplicated by the provider
	 * (docs/design.md section 8). The generation moves on only after a lookup proved the
	 * provider has no refund for this refund
	 * ({@link Refund#startNewProviderKeyGeneration}).
	 * @param generation the refund's provider key generation, 1 or more
	 * @return {@code payonce-refund-<uuid>} for generation 1 (the key every refund made
	 * before generations existed was sent with), {@code payonce-refund-<uuid>-g<n>} for
	 * generation n
	 * @throws IllegalArgumentException if {@code generation} is below 1
	 */
	public String providerIdempotencyKey(int generation) {
		if (generation < 1) {
			throw new IllegalArgumentException("A provider key generation starts at 1, got " + generation);
		}
		String key = "payonce-refund-" + this.value;
		return (generation == 1) ? key : key + "-g" + generation;
	}

	@Override
	public String toString() {
		return this.value.toString();
	}

}
