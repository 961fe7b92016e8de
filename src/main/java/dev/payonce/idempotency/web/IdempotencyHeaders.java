package dev.payonce.idempotency.web;

/**
 * The headers of the idempotency contract (IETF
 * draft-ietf-httpapi-idempotency-key-header).
 */
public final class IdempotencyHeaders {

	/** Names the operation; required on every idempotent request. */
	public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

	/**
	 * Marks a stored response replayed; set only by Payonce, never taken from a client.
	 */
	public static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";

	private IdempotencyHeaders() {
	}

}
