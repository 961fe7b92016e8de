package dev.payonce.idempotency;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The checks shared by the SQL pieces an operation or a guard hands the engine to embed
 * in one of its statements ({@link ResourceWrite}, {@link ResourceInsert},
 * {@link ClaimCondition}): plain names, clauses that cannot end the statement, and one
 * non-null argument per positional placeholder.
 */
final class SqlFragments {

	private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

	private SqlFragments() {
	}

	/** Whether {@code name} is a plain lower-case table or column name. */
	static boolean isName(String name) {
		return NAME.matcher(name).matches();
	}

	/** Whether {@code clause} is non-blank and holds no {@code ;}. */
	static boolean isClause(String clause) {
		return !clause.isBlank() && !clause.contains(";");
	}

	/**
	 * The arguments, copied, after checking that none is {@code null} and that there is
	 * one per {@code ?} placeholder of the clauses.
	 * @param what the piece, for the message (for example "A resource write")
	 * @throws IllegalArgumentException otherwise
	 */
	static List<Object> arguments(String what, List<Object> args, String... clauses) {
		if (args.stream().anyMatch(Objects::isNull)) {
			throw new IllegalArgumentException(what + " binds a null as an SqlParameterValue with its type");
		}
		long placeholders = 0;
		for (String clause : clauses) {
			placeholders += clause.chars().filter((c) -> c == '?').count();
		}
		if (placeholders != args.size()) {
			throw new IllegalArgumentException(
					what + " has " + placeholders + " placeholders and " + args.size() + " arguments");
		}
		return List.copyOf(args);
	}

}
