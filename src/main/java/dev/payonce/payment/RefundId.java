package dev.payonce.payment;

import java.util.UUID;

/**
 * Identifier of a refund, chosen by the idempotency engine when the key is first claimed
 * and kept across every attempt.
 *
 * @param value the UUID
 */
public record RefundId(UUID value) {

	/**
	 * The provider idempotency key: derived from the refund id, so that a refund re-sent
	 * by a takeover or a retry is deduplicated by the provider (docs/design.md section
	 * 8).
	 * @return {@code payonce-refund-<uuid>}
	 */
	public String providerIdempotencyKey() {
		return "payonce-refund-" + this.value;
	}

	@Override
	public String toString() {
		return this.value.toString();
	}

}
