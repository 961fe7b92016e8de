package dev.payonce.idempotency;

import java.time.Duration;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * One kind of operation run at most once per (scope, idempotency key) by
 * {@link IdempotencyService#execute}. The operation supplies only its steps; the engine
 * owns the sequence, the transactions, the fence and, for a declared {@link #resource()},
 * every statement that writes the resource (docs/design.md section 4):
 *
 * <ol>
 * <li>{@link #create} builds the new resource under the id the engine chose. For a
 * declared resource it only builds it in memory: the engine inserts it together with the
 * record, in one statement where it can or in the claim transaction otherwise, after the
 * declared claim update if there is one; an operation without a declared resource writes
 * it itself, inside the claim transaction. It may refuse ({@link #refusal()}), and then
 * nothing is stored;</li>
 * <li>on a takeover the resource is reloaded: by the engine for a declared resource, by
 * {@link #load} otherwise;</li>
 * <li>{@link #act} runs outside every transaction (it calls the provider) and decides:
 * finish, with a {@link FinishStep} the engine runs in the fenced completion (for a
 * declared resource, {@link ResourceTable#finish(Object, Transition)}), or release the
 * lease for a retry.</li>
 * </ol>
 * An operation that can be left unfinished also registers a {@link ReconciliationStep}
 * under the same {@link #name()}.
 *
 * @param <R> the resource the operation creates (for payments, the {@code Payment})
 * @param <T> the operation's own reason when it is refused or released
 */
public interface IdempotentOperation<R, T> {

	/**
	 * The operation's stable name, stored with every record: a key names one operation
	 * per scope, so the same key sent to another operation is a key reuse.
	 * @return 1 to 32 of {@code [a-z_]}, for example {@code payment}
	 */
	String name();

	/**
	 * The resource's declaration, registered as a bean ({@link ResourceTable}); with one,
	 * the engine inserts, reloads and writes the resource, and claims a fresh key in one
	 * statement where it can (docs/design.md section 4, "The claim in one statement").
	 * @return the declaration; {@code null} (the default) for a resource the operation
	 * writes and reloads itself
	 */
	default @Nullable ResourceTable<R> resource() {
		return null;
	}

	/**
	 * A check of this request that must run inside a claim transaction, after every
	 * {@link ClaimGuard} (for example that the caller's credentials are still valid). An
	 * operation that has one is always claimed in a transaction.
	 * @return the check, which throws to refuse (the claim transaction rolls back,
	 * nothing is claimed or created, and the exception reaches the caller of
	 * {@link IdempotencyService#execute}); {@code null} (the default) for none
	 */
	default @Nullable Runnable authorization() {
		return null;
	}

	/**
	 * The claim step: the new resource under {@code resourceId}. Runs only for a fresh
	 * claim, never for a takeover or a replay.
	 * @param resourceId the id the engine chose for the resource; stored with the record
	 * @return the resource; {@code null} to refuse the claim with {@link #refusal()}
	 * (nothing is then stored)
	 */
	@Nullable R create(UUID resourceId);

	/**
	 * The values of the declared claim update's placeholders for this request
	 * ({@link ResourceTable#claimUpdate}): the update's clauses' first, in order, then
	 * its precheck's.
	 * @param resource the new resource, as {@link #create} built it
	 * @return the values; none by default
	 */
	default Object[] claimArguments(R resource) {
		return new Object[0];
	}

	/**
	 * Why the claim is refused when the declared claim update matched no row; runs after
	 * nothing of the claim was written, outside any transaction or inside the claim
	 * transaction, and may read the database.
	 * @return the reason; {@code null} when what it read shows that the update would now
	 * match (a concurrent request changed the row in between): the engine then makes the
	 * update again, a few times at most
	 */
	default @Nullable T refusal() {
		return null;
	}

	/**
	 * Reloads the resource for a takeover, for an operation without a declared
	 * {@link #resource()}: the same resource id on every attempt.
	 * @param resourceId the id stored with the record
	 * @return the resource
	 * @throws IllegalStateException if it does not exist (a broken invariant)
	 * @throws UnsupportedOperationException by default: an operation with a declared
	 * {@link #resource()} is reloaded by the engine and never asked
	 */
	default R load(UUID resourceId) {
		throw new UnsupportedOperationException(name() + " declares no resource and reloads none");
	}

	/**
	 * The act step, outside every transaction: calls the provider and decides.
	 * @param resource the resource, fresh from {@link #create} or reloaded
	 * @return {@link Action.Finish} or {@link Action.Release}; never throws for an
	 * expected outcome
	 */
	Action<T> act(R resource);

	/**
	 * The longest one {@link #act} can run: for an operation that calls a provider, its
	 * worst-case call. The engine starts {@code act} only while at least this much of the
	 * attempt's lease is left by the instance's clock; otherwise it releases the lease
	 * without acting and answers in progress, so that a thread paused between its claim
	 * and its call (a stall, a long collection) never sends once another attempt may have
	 * taken the key over (docs/design.md section 4, "No act after its lease").
	 * @return the budget; {@link Duration#ZERO} (the default) checks only that the lease
	 * has not ended
	 */
	default Duration actBudget() {
		return Duration.ZERO;
	}

	/**
	 * What an operation's act step decided (see {@link IdempotentOperation#act}).
	 *
	 * @param <T> the operation's reason type
	 */
	sealed interface Action<T> {

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
		 * unknown): the engine ends the lease at once, so the next request with the key
		 * takes the record over and drives the same resource again. {@code step} runs in
		 * the same fenced release transaction, only while this attempt still holds the
		 * record (for example, recording what the provider's answer proved, or a new
		 * provider key generation).
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

	/**
	 * The write that completes an operation. The engine runs it inside the completion
	 * transaction, after locking the record for the attempt that still holds it; if
	 * another attempt took the record over, it never runs. Whatever it writes must be
	 * flushed before it returns (for JPA, {@code flush} or {@code saveAndFlush}), so that
	 * a constraint failure rolls the completion back instead of surfacing at commit.
	 */
	@FunctionalInterface
	interface FinishStep {

		/**
		 * Updates the resource and renders the response to store.
		 * @param resourceId the resource the lease holds
		 * @return the response, stored with the record and replayed to every retry
		 */
		StoredResponse finish(UUID resourceId);

	}

	/**
	 * A write that prepares a resource for its next attempt without completing it (see
	 * {@link ReconciliationStep.Settlement.Reattempt} and {@link Action.Release}). The
	 * engine runs it inside the release transaction, after locking the record for the
	 * attempt that still holds it; if another attempt took the record over, it never
	 * runs. Whatever it writes must be flushed before it returns.
	 */
	@FunctionalInterface
	interface ReleaseStep {

		/**
		 * Updates the resource.
		 * @param resourceId the resource the lease holds
		 */
		void prepare(UUID resourceId);

	}

}
