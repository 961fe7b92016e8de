package dev.payonce.idempotency;

/**
 * What an operation's act step decided (see {@link IdempotentOperation#act}).
 *
 * @param <T> the operation's reason type
 */
public sealed interface Action<T> {

	/**
	 * A final answer: the engine runs {@code step} inside the fenced completion
	 * transaction and stores its response.
	 *
	 * @param <T> the operation's reason type
	 * @param step updates the resource and renders the response to store
	 */
	record Finish<T>(FinishStep step) implements Action<T> {
	}

	/**
	 * No final answer yet (the provider refused before acting, or its outcome is
	 * unknown): the engine ends the lease at once, so the next request with the key takes
	 * the record over and drives the same resource again.
	 *
	 * @param <T> the operation's reason type
	 * @param reason why, for the caller to render
	 */
	record Release<T>(T reason) implements Action<T> {
	}

}
