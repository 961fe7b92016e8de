package dev.payonce.idempotency;

import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * An operation's one move of its resource to a final state, with the response to store
 * (docs/design.md section 4, "Completion in one statement"): for a payment,
 * {@code markSucceeded} and the 201 it answers. It moves the resource in memory only; the
 * engine writes the resource's declared columns ({@link ResourceTable}) and stores the
 * response in the fenced completion. It may run twice for one completion: once on the
 * copy the act step read, and, if that copy's row changed since, again on the resource
 * read inside the fenced completion transaction.
 *
 * @param <R> the resource
 */
@FunctionalInterface
public interface Transition<R> {

	/**
	 * Moves {@code resource} and renders the response.
	 * @param resource the resource, as read
	 * @return the response, stored with the record and replayed to every retry
	 * @throws IllegalStateException if the resource cannot make the move (for example it
	 * is final already); the completion then writes nothing
	 */
	StoredResponse apply(R resource);

	/**
	 * Runs once the completion that wrote this move has committed (for a log line and a
	 * metric); never for a stale attempt. Does nothing by default.
	 * @param resource the moved resource
	 * @param response the response stored
	 */
	default void completed(R resource, StoredResponse response) {
	}

	/**
	 * A transition that announces itself once written.
	 * @param <R> the resource
	 * @param move moves the resource and renders the response ({@link #apply})
	 * @param completed runs once the completion that wrote the move committed
	 * ({@link #completed})
	 * @return the transition
	 */
	static <R> Transition<R> of(Function<R, StoredResponse> move, BiConsumer<R, StoredResponse> completed) {
		return new Transition<>() {
			@Override
			public StoredResponse apply(R resource) {
				return move.apply(resource);
			}

			@Override
			public void completed(R resource, StoredResponse response) {
				completed.accept(resource, response);
			}
		};
	}

}
