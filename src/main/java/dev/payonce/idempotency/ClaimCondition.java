package dev.payonce.idempotency;

import java.util.List;

/**
 * A {@link ClaimGuard}'s check as an SQL condition, for the claim in one statement
 * (docs/design.md section 4, "The claim in one statement"): the engine evaluates it once,
 * before the claim's {@code INSERT}, in the same auto-committed statement, and inserts
 * nothing if it is not true. Whatever rows the condition locks stay locked until that
 * statement commits, exactly as a guard's locks last until the claim transaction commits.
 * The condition must hold the same guarantees as the guard's {@link ClaimGuard#check}; a
 * volatile function reads with a fresh snapshot per statement it runs, as a statement of
 * the claim transaction would.
 *
 * @param sql a boolean SQL expression with positional {@code ?} parameters, for example
 * {@code client_still_authorized(?, ?)}
 * @param args the values of the placeholders, in order; none {@code null}
 * @param refusal throws the exception the guard's check throws; run when the condition
 * was not true, after the statement committed nothing
 */
public record ClaimCondition(String sql, List<Object> args, Runnable refusal) {

	private static final ClaimCondition NONE = new ClaimCondition("TRUE", List.of(), () -> {
	});

	/**
	 * @throws IllegalArgumentException if the expression is blank or holds a {@code ;},
	 * an argument is {@code null}, or the number of {@code ?} placeholders is not the
	 * number of arguments
	 */
	public ClaimCondition {
		if (!SqlFragments.isClause(sql)) {
			throw new IllegalArgumentException("A claim condition is a non-blank expression with no ';'");
		}
		args = SqlFragments.arguments("A claim condition", args, sql);
	}

	/**
	 * The condition of a guard that has nothing to check for this request.
	 * @return {@code TRUE}
	 */
	public static ClaimCondition none() {
		return NONE;
	}

}
