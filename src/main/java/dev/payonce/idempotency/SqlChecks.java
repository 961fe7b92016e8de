package dev.payonce.idempotency;

import java.util.regex.Pattern;

/**
 * The checks of the SQL a resource declaration or a guard hands the engine once, at
 * start-up, to embed in the statements it builds then ({@link ResourceTable},
 * {@link ClaimGuard#condition()}): plain names, and clauses that cannot end the
 * statement. A declaration that fails them fails the start.
 */
final class SqlChecks {

	/** A plain lower-case table or column name, as PostgreSQL keeps it unquoted. */
	static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

	/** Non-blank, and no {@code ;} that could end the statement. */
	private static final Pattern CLAUSE = Pattern.compile("[^;]*[^;\\s][^;]*");

	private SqlChecks() {
	}

	/**
	 * @return {@code name}
	 * @throws IllegalArgumentException unless it is a plain lower-case name:
	 * {@code [a-z_]} then up to 62 of {@code [a-z0-9_]}
	 */
	static String name(String name) {
		if (!NAME.matcher(name).matches()) {
			throw new IllegalArgumentException("Not a plain lower-case name: " + name);
		}
		return name;
	}

	/**
	 * @return {@code clause}
	 * @throws IllegalArgumentException if it is blank or holds a {@code ;}
	 */
	static String clause(String clause) {
		if (!CLAUSE.matcher(clause).matches()) {
			throw new IllegalArgumentException("A clause is non-blank and holds no ';': " + clause);
		}
		return clause;
	}

	/** The number of positional {@code ?} placeholders. */
	static int placeholders(String clause) {
		int placeholders = 0;
		for (int i = clause.indexOf('?'); i >= 0; i = clause.indexOf('?', i + 1)) {
			placeholders++;
		}
		return placeholders;
	}

}
