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
	 * the record over and drives the same resource again. {@code step} runs in the same
	 * fenced release transaction, only while this attempt still holds the record (for
	 * example, recording what the provider's answer proved, or a new provider key
	 * generation).
	 *
	 * @param <T> the operation's reason type
	 * @param reason why, for the caller to render
	 * @param step the change to commit with the release
	 */
	record Release<T>(T reason, ReleaseStep step) implements Action<T> {

		/**
		 * A release that changes nothing but the lease.
		 * @param reason why, for the caller to render
		 */
		public Release(T reason) {
			this(reason, (resourceId) -> {
			});
		}

	}

}
