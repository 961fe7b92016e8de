package dev.payonce.idempotency;

import java.time.Duration;
import java.util.UUID;

/**
 * What {@link IdempotencyService#execute} decided, for the caller to render
 * (docs/design.md section 2).
 *
 * @param <T> the operation's reason type
 */
public sealed interface Execution<T> {

	/**
	 * A final answer, the same bytes for the first request and every replay.
	 *
	 * @param <T> the operation's reason type
	 * @param response the stored response
	 * @param replayed {@code true} when an earlier request stored it
	 */
	record Completed<T>(StoredResponse response, boolean replayed) implements Execution<T> {
	}

	/**
	 * The key was used with a different request, or for another operation: nothing
	 * executed.
	 *
	 * @param <T> the operation's reason type
	 */
	record KeyReused<T>() implements Execution<T> {
	}

	/**
	 * Another request with the key holds a live lease, or took this attempt's record
	 * over.
	 *
	 * @param <T> the operation's reason type
	 * @param retryAfter when to retry
	 */
	record InProgress<T>(Duration retryAfter) implements Execution<T> {
	}

	/**
	 * The operation's claim step refused; nothing was stored.
	 *
	 * @param <T> the operation's reason type
	 * @param reason the operation's reason
	 */
	record Refused<T>(T reason) implements Execution<T> {
	}

	/**
	 * The act step released the lease: a retry with the same key drives the same resource
	 * again.
	 *
	 * @param <T> the operation's reason type
	 * @param resourceId the resource the retry will resolve
	 * @param reason the operation's reason
	 * @param retryAfter when to retry
	 */
	record Released<T>(UUID resourceId, T reason, Duration retryAfter) implements Execution<T> {
	}

}
