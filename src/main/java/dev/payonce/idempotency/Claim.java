package dev.payonce.idempotency;

import java.time.Duration;

/**
 * The outcome of claiming an idempotency key (DESIGN.md section 4). Exactly one
 * concurrent caller gets {@link Acquired}; everyone else learns what to answer instead.
 */
public sealed interface Claim {

	/**
	 * This caller may act: it holds the lease.
	 *
	 * @param lease the lease to complete or release
	 * @param takeover {@code true} when an earlier attempt's lease had expired and this
	 * caller took it over; the resource then already exists and must be driven to its end
	 * with the same id
	 */
	record Acquired(Lease lease, boolean takeover) implements Claim {
	}

	/**
	 * The operation already completed: answer with its stored response.
	 *
	 * @param response the stored response, to replay byte for byte
	 */
	record Replay(StoredResponse response) implements Claim {
	}

	/**
	 * Another attempt holds a live lease on the key.
	 *
	 * @param retryAfter how long the client should wait before retrying
	 */
	record InProgress(Duration retryAfter) implements Claim {
	}

	/**
	 * The key was used with a different request fingerprint; nothing may execute.
	 */
	record Mismatch() implements Claim {
	}

}
