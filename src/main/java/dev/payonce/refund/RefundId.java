package dev.payonce.refund;

import java.util.UUID;

/**
 * Identifier of a refund, chosen by the idempotency engine when the key is first claimed
 * and kept across every attempt.
 *
 * @param value the UUID
 */
public record RefundId(UUID value) {

	@Override
	public String toString() {
		return this.value.toString();
	}

}
