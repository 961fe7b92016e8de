package dev.payonce.idempotency;

import java.util.List;

/**
 * The checks shared by the SQL pieces an operation or a guard hands the engine to embed
 * in one of its statements ({@link ResourceWrite}, {@link ResourceInsert},
 * {@link ClaimCondition}): plain names, clauses that cannot end the statement, and one
 * non-null argument per positional placeholder.
 */
final class SqlFragments {

	private SqlFragments() {
	}

	/**
	 * Whether {@code name} is a plain lower-case table or column name: {@code [a-z_]}
	 * then up to 62 of {@code [a-z0-9_]}. A loop rather than a regular expression: these
	 * checks run for every claim and completion (issue 13's profile).
	 */
	static boolean isName(String name) {
		int length = name.length();
		if (length == 0 || length > 63) {
			return false;
		}
		for (int i = 0; i < length; i++) {
			char c = name.charAt(i);
			boolean plain = (c >= 'a' && c <= 'z') || c == '_' || (i > 0 && c >= '0' && c <= '9');
			if (!plain) {
				return false;
			}
		}
		return true;
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
		List<Object> copy = values(what, args);
		int placeholders = 0;
		for (String clause : clauses) {
			for (int i = clause.indexOf('?'); i >= 0; i = clause.indexOf('?', i + 1)) {
				placeholders++;
			}
		}
		if (placeholders != args.size()) {
			throw new IllegalArgumentException(
					what + " has " + placeholders + " placeholders and " + args.size() + " arguments");
		}
		return copy;
	}

	/**
	 * The values, copied, after checking that none is {@code null} (a null is bound as an
	 * {@code SqlParameterValue} that names its type).
	 * @param what the piece, for the message (for example "A resource insert")
	 * @throws IllegalArgumentException otherwise
	 */
	static List<Object> values(String what, List<Object> values) {
		for (Object value : values) {
			if (value == null) {
				throw new IllegalArgumentException(what + " binds a null as an SqlParameterValue with its type");
			}
		}
		return List.copyOf(values);
	}

}
