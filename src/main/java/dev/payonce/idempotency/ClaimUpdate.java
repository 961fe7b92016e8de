package dev.payonce.idempotency;

import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * A conditional {@code UPDATE} that an operation's claim step makes before it inserts its
 * resource, for the claim in one statement (docs/design.md section 4, "The claim in one
 * statement"; {@link ResourceInsert#after}): for a refund, the reservation of its amount
 * on the payment. The engine runs it in the claim's statement only once the record is
 * inserted, and the claim stands only if it updated exactly one row: otherwise the
 * statement is undone as a whole (no record, no resource, no update) and the claim is
 * refused with {@link #refusal}'s reason, exactly as a {@link Creation.Refused} in a
 * claim transaction.
 *
 * <p>
 * The engine builds
 * {@code UPDATE table SET set [FROM from] WHERE (where) AND <the record was inserted> RETURNING returning}:
 * the operation gives the clauses, never a whole statement. The clauses take positional
 * {@code ?} parameters, bound from {@code args} in order ({@code set}'s first, then
 * {@code from}'s, then {@code where}'s); a {@code null} is bound as a
 * {@link org.springframework.jdbc.core.SqlParameterValue} with its SQL type. Rows that
 * the update (or its {@code FROM ... FOR UPDATE}) locks stay locked until the statement
 * commits, as in a claim transaction.
 *
 * @param table the table updated, for example {@code payments}
 * @param set the {@code SET} clause without the keyword
 * @param from the {@code FROM} clause without the keyword, or {@code null} for none
 * @param where the condition without the keyword
 * @param returning the columns the update returns, plain lower-case names that are
 * unambiguous among {@code table} and {@code from}; the resource's {@code INSERT} reads
 * them with {@link ResourceInsert#returned}, and the resource is built from them
 * @param args the values of the {@code ?} placeholders, in clause order
 * @param refusal why the claim is refused when the update matched no row; runs after the
 * statement was undone, outside any transaction, and may read the database. It answers
 * {@code null} when what it read shows that the update would now match (a concurrent
 * request changed the row in between): the engine then claims again, in a claim
 * transaction with {@link IdempotentOperation#create}, instead of refusing for a reason
 * that no longer holds
 * @param precheck a boolean SQL expression that reads, without locking, whether the
 * update would match, or {@code null} for none: the engine evaluates it with the guards'
 * conditions and inserts nothing if it is not true, then claims in a transaction instead,
 * whose {@link IdempotentOperation#create} refuses without aborting a statement (or
 * replays, if the key has a record); the undo stays for a precheck that a concurrent
 * request made false before the update's lock
 * @param precheckArgs the values of the precheck's {@code ?} placeholders, in order
 */
public record ClaimUpdate(String table, String set, @Nullable String from, String where, List<String> returning,
		List<Object> args, Supplier<? extends @Nullable Object> refusal, @Nullable String precheck,
		List<Object> precheckArgs) {

	/**
	 * @throws IllegalArgumentException if the table or a returned column is not a plain
	 * lower-case name, there is no returned column, a clause is blank or holds a
	 * {@code ;}, an argument is {@code null}, or the number of {@code ?} placeholders is
	 * not the number of arguments
	 */
	public ClaimUpdate {
		if (!SqlFragments.isName(table) || returning.isEmpty() || !returning.stream().allMatch(SqlFragments::isName)) {
			throw new IllegalArgumentException("A claim update names its table and returned columns in [a-z0-9_]");
		}
		if (!SqlFragments.isClause(set) || !SqlFragments.isClause(where)
				|| (from != null && !SqlFragments.isClause(from))) {
			throw new IllegalArgumentException("A claim update's clauses are non-blank and hold no ';'");
		}
		returning = List.copyOf(returning);
		args = (from != null) ? SqlFragments.arguments("A claim update", args, set, from, where)
				: SqlFragments.arguments("A claim update", args, set, where);
		if (precheck != null && !SqlFragments.isClause(precheck)) {
			throw new IllegalArgumentException("A claim update's precheck is a non-blank expression with no ';'");
		}
		precheckArgs = (precheck != null) ? SqlFragments.arguments("A claim update's precheck", precheckArgs, precheck)
				: SqlFragments.arguments("A claim update's precheck", precheckArgs);
	}

	/**
	 * A claim update without a precheck.
	 * @see #ClaimUpdate(String, String, String, String, List, List, Supplier, String,
	 * List)
	 */
	public ClaimUpdate(String table, String set, @Nullable String from, String where, List<String> returning,
			List<Object> args, Supplier<? extends @Nullable Object> refusal) {
		this(table, set, from, where, returning, args, refusal, null, List.of());
	}

}
