package dev.payonce.idempotency;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of claiming an idempotency key (docs/design.md section 4), inside the
 * engine. Exactly one concurrent caller gets {@link Acquired}; everyone else learns what
 * to answer instead.
 */
sealed interface Claim {

	/**
	 * This caller may act: it holds the lease.
	 *
	 * @param lease the lease to complete or release
	 * @param takeover {@code true} when an earlier attempt's lease had expired and this
	 * caller took it over; the resource then already exists and is reloaded
	 * @param created what the operation's claim step created on a fresh claim;
	 * {@code null} on a takeover
	 */
	record Acquired(Lease lease, boolean takeover, @Nullable Object created) implements Claim {
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
	 * The key was used with a different request fingerprint or for another operation;
	 * nothing may execute.
	 */
	record Mismatch() implements Claim {
	}

	/**
	 * The operation's claim step refused to create its resource; the claim transaction
	 * was rolled back, so nothing is stored.
	 *
	 * @param reason the operation's reason
	 */
	record Refused(Object reason) implements Claim {
	}

}
