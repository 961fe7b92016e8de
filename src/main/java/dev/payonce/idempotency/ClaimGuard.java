package dev.payonce.idempotency;

import java.util.Optional;

/**
 * A check the engine runs inside every claim transaction, before the claim's
 * {@code INSERT}, for every operation (docs/design.md section 4). A module that must
 * confirm something at the moment of the claim (for example that the caller's client is
 * still active) registers a bean of this type; the engine runs every registered guard.
 *
 * <p>
 * A guard that throws aborts the claim: the transaction rolls back, nothing is claimed or
 * created, and the exception reaches the caller of {@link IdempotencyService#execute}. A
 * guard may lock rows ({@code FOR SHARE}) that must not change until the claim commits.
 */
@FunctionalInterface
public interface ClaimGuard {

	/**
	 * Checks the scope inside the claim transaction.
	 * @param scope the scope about to claim a key
	 * @param operation the operation's name
	 * @throws RuntimeException to refuse the claim
	 */
	void check(IdempotencyScope scope, String operation);

	/**
	 * This guard's check as an SQL condition, for a claim made in one statement
	 * ({@link ClaimCondition}). A guard without one makes every claim run in a claim
	 * transaction, where {@link #check} runs.
	 * @param scope the scope about to claim a key
	 * @param operation the operation's name
	 * @return the condition ({@link ClaimCondition#none()} if this request has nothing to
	 * check); empty by default
	 */
	default Optional<ClaimCondition> condition(IdempotencyScope scope, String operation) {
		return Optional.empty();
	}

}
