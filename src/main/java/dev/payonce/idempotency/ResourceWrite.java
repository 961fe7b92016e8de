package dev.payonce.idempotency;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

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

	private static final Pattern TABLE = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

	/**
	 * @throws IllegalArgumentException if the table is not a plain lower-case name, a
	 * clause is blank or holds a {@code ;}, an argument is {@code null}, or the number of
	 * {@code ?} placeholders is not the number of arguments
	 */
	public ResourceWrite {
		if (!TABLE.matcher(table).matches()) {
			throw new IllegalArgumentException("A resource write names its table in [a-z0-9_]");
		}
		if (set.isBlank() || where.isBlank() || set.contains(";") || where.contains(";")) {
			throw new IllegalArgumentException("A resource write's clauses are non-blank and hold no ';'");
		}
		if (args.stream().anyMatch(Objects::isNull)) {
			throw new IllegalArgumentException("A resource write binds a null as an SqlParameterValue with its type");
		}
		args = List.copyOf(args);
		long placeholders = (set + where).chars().filter((c) -> c == '?').count();
		if (placeholders != args.size()) {
			throw new IllegalArgumentException(
					"A resource write has " + placeholders + " placeholders and " + args.size() + " arguments");
		}
	}

}
