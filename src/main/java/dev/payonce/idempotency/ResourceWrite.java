package dev.payonce.idempotency;

import java.util.List;

/**
 * One {@code UPDATE} of an operation's resource that the engine runs inside its fenced
 * completion statement ({@link RenderedFinish#writes}), only while the lease's attempt
 * still holds the record (docs/design.md section 4, "Completion in one statement"). The
 * engine builds {@code UPDATE table SET set WHERE (where) AND <the fence held>}: the
 * operation names its table and gives its two clauses, never a whole statement, so its
 * condition cannot escape the fence whatever operators it uses.
 *
 * <p>
 * The clauses take positional {@code ?} parameters, bound from {@code args} in order (the
 * {@code SET} clause's first); a {@code null} is bound as a
 * {@link org.springframework.jdbc.core.SqlParameterValue} with its SQL type. A write that
 * matches no row makes the engine write nothing at all and finish the slow way (see
 * {@link RenderedFinish}).
 *
 * @param table the table, for example {@code payments}
 * @param set the {@code SET} clause without the keyword, for example
 * {@code status = ?, version = version + 1}
 * @param where the condition without the keyword, for example
 * {@code id = ? AND version = ?}
 * @param args the values of the {@code ?} placeholders, {@code set}'s first
 */
public record ResourceWrite(String table, String set, String where, List<Object> args) {

	/**
	 * @throws IllegalArgumentException if the table is not a plain lower-case name, a
	 * clause is blank or holds a {@code ;}, an argument is {@code null}, or the number of
	 * {@code ?} placeholders is not the number of arguments
	 */
	public ResourceWrite {
		if (!SqlFragments.isName(table)) {
			throw new IllegalArgumentException("A resource write names its table in [a-z0-9_]");
		}
		if (!SqlFragments.isClause(set) || !SqlFragments.isClause(where)) {
			throw new IllegalArgumentException("A resource write's clauses are non-blank and hold no ';'");
		}
		args = SqlFragments.arguments("A resource write", args, set, where);
	}

}
