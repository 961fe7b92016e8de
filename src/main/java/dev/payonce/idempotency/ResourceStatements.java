package dev.payonce.idempotency;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The SQL text of every statement the engine runs for one declared resource
 * ({@link ResourceTable}), built once when the engine starts (docs/design.md section 4,
 * "The claim in one statement", "Completion in one statement") from the declaration and
 * the guards' declared conditions; {@link PreparedResource} binds a request's values to
 * them. Nothing here runs per request.
 *
 * @param <R> the resource
 */
final class ResourceStatements<R> {

	/** The record's columns a claim reads before it inserts. */
	private static final String EXISTING = """
			SELECT operation, request_fingerprint, status, attempt, resource_id,
			       response_status, response_headers, response_body,
			       CAST(EXTRACT(EPOCH FROM locked_until - statement_timestamp()) * 1000000 AS bigint) AS lease_left,
			       CAST(EXTRACT(EPOCH FROM expires_at - statement_timestamp()) * 1000000 AS bigint) AS expires_in
			FROM idempotency_records WHERE scope = ? AND idempotency_key = ?""";

	private final ResourceTable<R> table;

	private final @Nullable ClaimUpdate update;

	private final @Nullable CompletionUpdate<R> second;

	private final @Nullable CompletionInsert<R> third;

	private final List<MappedColumn> inserted;

	private final List<MappedColumn> updated;

	/**
	 * The claim in one statement for each subset of the guards that have something to
	 * check (bit {@code i} set: guard {@code i}'s condition is in); {@code null} if a
	 * guard declares no condition.
	 */
	private final String @Nullable [] claims;

	private final String insert;

	private final @Nullable String claimUpdate;

	private final String select;

	private final String selectForUpdate;

	private final String write;

	private final @Nullable String secondWrite;

	private final @Nullable String insertWrite;

	private final String completion;

	/** {@link #completion} without the fence, for the test that breaks it on purpose. */
	private final String unfencedCompletion;

	/**
	 * @param conditions each guard's condition, in the guards' order; {@code null} for a
	 * guard that declares none (then no claim is made in one statement)
	 * @throws IllegalArgumentException if the resource has no updatable column
	 */
	ResourceStatements(ResourceTable<R> table, List<@Nullable String> conditions, ClaimDeadline deadline) {
		this.table = table;
		this.update = table.claimUpdateDeclared();
		this.second = table.completionUpdateDeclared();
		this.third = table.completionInsertDeclared();
		this.inserted = table.columns().stream().filter(MappedColumn::insertable).toList();
		this.updated = table.columns().stream().filter(MappedColumn::updatable).toList();
		if (this.updated.isEmpty()) {
			throw new IllegalArgumentException(table.type().getName() + " has no updatable column to complete");
		}
		this.claims = conditions.contains(null) ? null : claims(conditions, deadline);
		String columns = names(table.columns(), "");
		this.insert = "INSERT INTO " + table.table() + " (" + names(this.inserted, "") + ") VALUES ("
				+ repeat("?", this.inserted.size()) + ")";
		this.claimUpdate = (this.update != null) ? updateStatement(this.update, "") : null;
		this.select = "SELECT " + columns + " FROM " + table.table() + " WHERE " + table.id().name() + " = ?";
		this.selectForUpdate = this.select + " FOR UPDATE";
		this.write = "UPDATE " + table.table() + " SET " + assignments() + " WHERE " + table.id().name() + " = ? AND "
				+ table.version().name() + " = ?";
		this.secondWrite = (this.second != null)
				? "UPDATE " + this.second.table() + " SET " + this.second.set() + " WHERE " + this.second.where()
				: null;
		this.insertWrite = (this.third != null)
				? "INSERT INTO " + this.third.table() + " (" + String.join(", ", this.third.columns()) + ") VALUES ("
						+ repeat("?", this.third.columns().size()) + ")"
				: null;
		this.completion = completionStatement("status = 'IN_PROGRESS' AND attempt = ?");
		this.unfencedCompletion = completionStatement("(attempt = ? OR TRUE)");
	}

	/** The columns an {@code INSERT} writes, in the order of its placeholders. */
	List<MappedColumn> inserted() {
		return this.inserted;
	}

	/** The columns the versioned write sets, in the order of its placeholders. */
	List<MappedColumn> updated() {
		return this.updated;
	}

	/**
	 * The claim in one statement that checks the guards of {@code mask} (bit {@code i}
	 * set: guard {@code i}'s condition is in); {@code null} if a guard declares no
	 * condition.
	 */
	@Nullable String claim(int mask) {
		String[] statements = this.claims;
		return (statements != null) ? statements[mask] : null;
	}

	String insert() {
		return this.insert;
	}

	@Nullable String claimUpdate() {
		return this.claimUpdate;
	}

	String select() {
		return this.select;
	}

	String selectForUpdate() {
		return this.selectForUpdate;
	}

	String write() {
		return this.write;
	}

	@Nullable String secondWrite() {
		return this.secondWrite;
	}

	/** The declared completion insert on its own, for the completion that reads again. */
	@Nullable String insertWrite() {
		return this.insertWrite;
	}

	/**
	 * The completion in one statement.
	 * @param fenced {@code false} only in the test that breaks the fence on purpose
	 */
	String completion(boolean fenced) {
		return fenced ? this.completion : this.unfencedCompletion;
	}

	/**
	 * The column of the claim update's {@code RETURNING} that a column of the resource is
	 * inserted from; {@code null} if it is bound from the resource.
	 */
	@Nullable String returnedFor(MappedColumn column) {
		ClaimUpdate declared = this.update;
		if (declared == null || column.owner() != null) {
			return null;
		}
		for (ClaimUpdate.Into into : declared.into()) {
			if (into.field().name().equals(column.accessor().name())) {
				return into.returned();
			}
		}
		return null;
	}

	private String assignments() {
		StringBuilder set = new StringBuilder();
		for (MappedColumn column : this.updated) {
			set.append(column.name()).append(" = ?, ");
		}
		String version = this.table.version().name();
		return set.append(version).append(" = ").append(version).append(" + 1").toString();
	}

	private static String updateStatement(ClaimUpdate update, String condition) {
		StringBuilder returning = new StringBuilder();
		for (ClaimUpdate.Into into : update.into()) {
			returning.append((returning.length() > 0) ? ", " : "")
				.append(into.returned())
				.append(" AS r_")
				.append(into.returned());
		}
		return "UPDATE " + update.table() + " SET " + update.set()
				+ ((update.from() != null) ? " FROM " + update.from() : "") + " WHERE (" + update.where() + ")"
				+ condition + " RETURNING " + returning;
	}

	private String[] claims(List<String> conditions, ClaimDeadline deadline) {
		String[] statements = new String[1 << conditions.size()];
		for (int mask = 0; mask < statements.length; mask++) {
			statements[mask] = claimStatement(conditions, mask, deadline);
		}
		return statements;
	}

	/**
	 * docs/design.md section 4, "The claim in one statement": the key's record read
	 * first; the guard (the deadline, then each included condition and the precheck); the
	 * record inserted only if there was none and every check held; the claim update and
	 * the resource inserted only if the record was.
	 */
	private String claimStatement(List<String> conditions, int mask, ClaimDeadline deadline) {
		// The deadline is set before any condition is evaluated, so it bounds every lock
		// wait of the statement; checked again last.
		String lockTimeout = deadline.bound().map((bound) -> "bound.lock_timeout IS NOT NULL").orElse("TRUE");
		String late = deadline.bound().map((bound) -> """
				,
				       CASE WHEN clock_timestamp() > statement_timestamp() + INTERVAL '%d microseconds'
				            THEN idempotency_claim_late() END AS late""".formatted(bound.toNanos() / 1000)).orElse("");
		StringBuilder guard = new StringBuilder("SELECT " + lockTimeout + " AS g");
		StringBuilder passed = new StringBuilder("g");
		for (int i = 0; i < conditions.size(); i++) {
			if ((mask & (1 << i)) != 0) {
				guard.append(", (").append(conditions.get(i)).append(") IS TRUE AS g").append(i);
				passed.append(" AND g").append(i);
			}
		}
		ClaimUpdate declared = this.update;
		if (declared != null && declared.precheck() != null) {
			guard.append(", (").append(declared.precheck()).append(") IS TRUE AS p");
			passed.append(" AND p");
		}
		deadline.bound()
			.ifPresent((bound) -> guard.append(" FROM (SELECT set_config('lock_timeout', '")
				.append(bound.toMillis())
				.append("ms', true) AS lock_timeout) AS bound"));
		List<String> values = new ArrayList<>(this.inserted.size());
		for (MappedColumn column : this.inserted) {
			String returned = returnedFor(column);
			values.add((returned != null) ? "updated.r_" + returned : "?");
		}
		StringBuilder sql = new StringBuilder("WITH existing AS (" + EXISTING + "),\n");
		sql.append("guard AS (")
			.append(guard)
			.append("),\n")
			.append("""
					claimed AS (INSERT INTO idempotency_records
					    (scope, idempotency_key, operation, request_fingerprint, status, locked_until, attempt, resource_id, created_at)
					    SELECT ?, ?, ?, ?, 'IN_PROGRESS', statement_timestamp() + ? * INTERVAL '1 microsecond', 1, ?, ?
					    FROM guard WHERE %s AND NOT EXISTS (SELECT 1 FROM existing)
					    ON CONFLICT (scope, idempotency_key) DO NOTHING
					    RETURNING resource_id),
					"""
				.formatted(passed));
		String existing = """
				,
				       e.operation AS e_operation, e.request_fingerprint AS e_request_fingerprint, e.status AS e_status,
				       e.attempt AS e_attempt, e.resource_id AS e_resource_id, e.response_status AS e_response_status,
				       e.response_headers AS e_response_headers, e.response_body AS e_response_body,
				       e.lease_left AS e_lease_left, e.expires_in AS e_expires_in""";
		String insertInto = "INSERT INTO " + this.table.table() + " (" + names(this.inserted, "") + ") SELECT "
				+ String.join(", ", values);
		if (declared == null) {
			return sql.append("created AS (")
				.append(insertInto)
				.append(" FROM claimed RETURNING 1)\n")
				.append("SELECT guard.*, EXISTS (SELECT 1 FROM claimed) AS claimed, ")
				.append("EXISTS (SELECT 1 FROM created) AS created")
				.append(late)
				.append(existing)
				.append("\nFROM guard LEFT JOIN existing AS e ON TRUE")
				.toString();
		}
		StringBuilder returned = new StringBuilder();
		for (ClaimUpdate.Into into : declared.into()) {
			returned.append(", u.r_").append(into.returned());
		}
		return sql.append("updated AS (")
			.append(updateStatement(declared, " AND EXISTS (SELECT 1 FROM claimed)"))
			.append("),\n")
			.append("created AS (")
			.append(insertInto)
			.append(" FROM claimed, updated RETURNING 1)\n")
			.append("SELECT guard.*, EXISTS (SELECT 1 FROM claimed) AS claimed, ")
			.append("EXISTS (SELECT 1 FROM created) AS created")
			.append(returned)
			.append("""
					,
					       CASE WHEN EXISTS (SELECT 1 FROM claimed) AND (SELECT count(*) FROM updated) <> 1
					            THEN idempotency_undo('the claim update did not update exactly one row') END AS undone""")
			.append(late)
			.append(existing)
			.append("\nFROM guard LEFT JOIN (SELECT * FROM updated LIMIT 1) AS u ON TRUE LEFT JOIN existing AS e ON TRUE")
			.toString();
	}

	/**
	 * docs/design.md section 4, "Completion in one statement": the record locked if this
	 * attempt holds it, then each write only if the one before wrote a row, then the
	 * record completed only if the last one did, then the declared completion insert only
	 * if the record was completed; with two writes, one that matched no row after the
	 * first wrote undoes the statement.
	 */
	private String completionStatement(String fence) {
		StringBuilder sql = new StringBuilder("""
				WITH held AS (SELECT 1 FROM idempotency_records
				    WHERE scope = ? AND idempotency_key = ? AND %s
				    FOR UPDATE),
				w0 AS (UPDATE %s SET %s WHERE %s = ? AND %s = ? AND EXISTS (SELECT 1 FROM held) RETURNING 1)"""
			.formatted(fence, this.table.table(), assignments(), this.table.id().name(), this.table.version().name()));
		String last = "w0";
		CompletionUpdate<R> declared = this.second;
		if (declared != null) {
			sql.append(",\nw1 AS (UPDATE ")
				.append(declared.table())
				.append(" SET ")
				.append(declared.set())
				.append(" WHERE (")
				.append(declared.where())
				.append(") AND EXISTS (SELECT 1 FROM w0) RETURNING 1)");
			last = "w1";
		}
		sql.append("""
				,
				done AS (UPDATE idempotency_records
				    SET status = 'COMPLETED', locked_until = NULL, response_status = ?,
				        response_headers = CAST(? AS jsonb), response_body = ?, completed_at = ?,
				        expires_at = statement_timestamp() + ? * INTERVAL '1 microsecond'
				    WHERE scope = ? AND idempotency_key = ? AND %s
				      AND EXISTS (SELECT 1 FROM %s) RETURNING 1)""".formatted(fence, last));
		CompletionInsert<R> inserted = this.third;
		if (inserted != null) {
			// Only once the record is completed: the row exists exactly when the
			// completion does.
			sql.append(",\ninserted AS (INSERT INTO ")
				.append(inserted.table())
				.append(" (")
				.append(String.join(", ", inserted.columns()))
				.append(") SELECT ")
				.append(repeat("?", inserted.columns().size()))
				.append(" WHERE EXISTS (SELECT 1 FROM done) RETURNING 1)");
		}
		sql.append("\nSELECT EXISTS (SELECT 1 FROM held) AS held, EXISTS (SELECT 1 FROM done) AS done");
		if (declared != null) {
			sql.append(
					"""
							,
							       CASE WHEN EXISTS (SELECT 1 FROM w0) AND NOT EXISTS (SELECT 1 FROM done)
							            THEN idempotency_undo('a later write of the completion matched no row') END AS undone""");
		}
		return sql.toString();
	}

	private static String names(List<MappedColumn> columns, String prefix) {
		StringBuilder names = new StringBuilder();
		for (MappedColumn column : columns) {
			names.append((names.length() > 0) ? ", " : "").append(prefix).append(column.name());
		}
		return names.toString();
	}

	private static String repeat(String placeholder, int count) {
		return String.join(", ", Collections.nCopies(count, placeholder));
	}

}
