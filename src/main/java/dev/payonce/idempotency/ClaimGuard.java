package dev.payonce.idempotency;

import org.jspecify.annotations.Nullable;

/**
 * A check the engine runs inside every claim, before the claim's {@code INSERT}, for
 * every operation (docs/design.md section 4). A module that must confirm something at the
 * moment of the claim (for example that the caller's client is still active) registers a
 * bean of this type; the engine runs every registered guard.
 *
 * <p>
 * In a claim transaction the engine calls {@link #check}. A guard that also declares its
 * check as an SQL {@link #condition()} lets a fresh key be claimed in one statement
 * (docs/design.md section 4, "The claim in one statement"): the engine embeds the
 * condition, declared once, in the claim statements it builds at start-up, binds
 * {@link #arguments} per request, and calls {@link #refuse()} when it was not true.
 *
 * <p>
 * A guard that throws aborts the claim: nothing is claimed or created, and the exception
 * reaches the caller of {@link IdempotencyService#execute}. A guard may lock rows
 * ({@code FOR SHARE}) that must not change until the claim commits.
 */
public interface ClaimGuard {

	/**
	 * Checks the scope inside the claim transaction.
	 * @param scope the scope about to claim a key
	 * @param operation the operation's name
	 * @throws RuntimeException to refuse the claim
	 */
	void check(IdempotencyScope scope, String operation);

	/**
	 * This guard's check as a boolean SQL expression with positional {@code ?}
	 * parameters, read once at start-up; it must hold the same guarantees as
	 * {@link #check} (its locks last until the claim's statement commits, and a volatile
	 * function reads with a fresh snapshot). A guard without one makes every claim run in
	 * a claim transaction.
	 * @return the expression, for example {@code client_still_authorized(?, ?)}; no
	 * condition by default
	 */
	default @Nullable String condition() {
		return null;
	}

	/**
	 * The values of the condition's placeholders for this request.
	 * @param scope the scope about to claim a key
	 * @param operation the operation's name
	 * @return one value per placeholder (a {@code null} bound as an
	 * {@link org.springframework.jdbc.core.SqlParameterValue}); {@code null} if this
	 * request has nothing to check (the condition is then left out)
	 */
	default Object @Nullable [] arguments(IdempotencyScope scope, String operation) {
		return null;
	}

	/**
	 * Throws the exception {@link #check} throws; called when the condition was not true,
	 * after the statement committed nothing.
	 * @throws RuntimeException always
	 */
	default void refuse() {
		throw new IllegalStateException("Claim refused by " + getClass().getSimpleName());
	}

}
