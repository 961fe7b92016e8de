package dev.payonce.idempotency;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * One kind of operation run at most once per (scope, idempotency key) by
 * {@link IdempotencyService#execute}. The operation supplies only its steps; the engine
 * owns the sequence, the transactions and the fence (docs/design.md section 4):
 *
 * <ol>
 * <li>{@link #authorize} runs first in every claim transaction, for a check of this
 * request that must hold at the moment of the claim (for example that the caller's
 * credentials are still valid);</li>
 * <li>{@link #create} runs inside the claim transaction of a fresh key, so the record and
 * the resource commit together or not at all; it may refuse, and then nothing is
 * stored;</li>
 * <li>on a takeover {@link #load} reloads the resource that an earlier attempt
 * created;</li>
 * <li>{@link #act} runs outside every transaction (it calls the provider) and decides:
 * finish, with a {@link FinishStep} the engine runs inside the fenced completion
 * transaction, or release the lease for a retry.</li>
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
	 * Checks this request once more inside each claim transaction, before the claim reads
	 * or writes anything (after every {@link ClaimGuard}). Does nothing by default.
	 * @throws RuntimeException to refuse: the claim transaction rolls back, nothing is
	 * claimed or created, and the exception reaches the caller of
	 * {@link IdempotencyService#execute}
	 */
	default void authorize() {
	}

	/**
	 * The claim step: creates the resource under {@code resourceId} inside the claim
	 * transaction. Runs only for a fresh claim, never for a takeover or a replay.
	 * @param resourceId the id the engine chose for the resource; stored with the record
	 * @return {@link Creation.Created} with the resource, or {@link Creation.Refused}
	 * (the claim transaction is then rolled back)
	 */
	Creation<R, T> create(UUID resourceId);

	/**
	 * The claim step as one {@code INSERT}, for the claim in one statement
	 * (docs/design.md section 4, "The claim in one statement"): the record and the
	 * resource are inserted and committed by one auto-committed statement, instead of a
	 * claim transaction of four round trips. Used only when the operation does not
	 * override {@link #authorize} (which needs a claim transaction), every
	 * {@link ClaimGuard} offers a {@link ClaimGuard#condition}, and the connection pool
	 * keeps every session at READ COMMITTED; otherwise, and whenever the key already has
	 * a record, the engine claims in a transaction with {@link #create}. So an operation
	 * that offers an insert must still implement {@link #create} with the same effect. A
	 * plain insert never refuses; one made {@link ResourceInsert#after} a
	 * {@link ClaimUpdate} refuses, with nothing written, when the update matches no row,
	 * as {@link #create} would.
	 * @param resourceId the id the engine chose for the resource; stored with the record
	 * @return the insert; empty by default
	 */
	default Optional<ResourceInsert<R>> insert(UUID resourceId) {
		return Optional.empty();
	}

	/**
	 * Reloads the resource for a takeover: the same resource id on every attempt.
	 * @param resourceId the id stored with the record
	 * @return the resource
	 * @throws IllegalStateException if it does not exist (a broken invariant)
	 */
	R load(UUID resourceId);

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

}
