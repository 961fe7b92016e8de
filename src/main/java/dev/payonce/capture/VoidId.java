package dev.payonce.capture;

import java.util.UUID;

/**
 * Identifier of a void, chosen by the idempotency engine when the key is first claimed
 * and kept across every attempt.
 *
 * @param value the UUID
 */
public record VoidId(UUID value) {

	@Override
	public String toString() {
		return this.value.toString();
	}

}
