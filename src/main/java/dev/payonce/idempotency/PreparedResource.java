package dev.payonce.idempotency;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Every statement the engine runs for one declared resource ({@link ResourceTable}),
 * built once when the engine starts (docs/design.md section 4, "The claim in one
 * statement", "Completion in one statement"), and the binding of a request's values to
 * them. Per request nothing here builds SQL text: it fills an argument array in the order
 * of the placeholders, from the resource through the accessors found at start-up.
 *
 * @param <R> the resource
 */
final class PreparedResource<R> {

	/** The record's columns a claim reads before it inserts. */
	private static final String EXISTING = """
			SELECT operation, request_fingerprint, status, attempt, resource_id,
			       response_status, response_headers, response_body,
			       CAST(EXTRACT(EPOCH FROM locked_until - statement_timestamp()) * 1000000 AS bigint) AS lease_left,
			       CAST(EXTRACT(EPOCH FROM expires_at - statement_timestamp()) * 1000000 AS bigint) AS expires_in
			FROM idempotency_records WHERE client_id = ? AND idempotency_key = ?""";

	private final ResourceTable<R> table;

	private final JdbcClient jdbc;

	private final IdempotencyRecords records;

	private final List<ClaimGuard> guards;

	private final ResourceTable.@Nullable ClaimUpdate update;

	private final ResourceTable.@Nullable SecondWrite<R> second;

	private final List<ResourceTable.Column> inserted;

	private final List<ResourceTable.Column> updated;

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

	private final String completion;

	/** {@link #completion} without the fence, for the test that breaks it on purpose. */
	private final String unfencedCompletion;

	PreparedResource(ResourceTable<R> table, JdbcClient jdbc, IdempotencyRecords records, List<ClaimGuard> guards,
			ClaimDeadline deadline) {
		this.table = table;
		this.jdbc = jdbc;
		this.records = records;
		this.guards = List.copyOf(guards);
		this.update = table.claimUpdateDeclared();
		this.second = table.secondWrite();
		this.inserted = table.columns().stream().filter(ResourceTable.Column::insertable).toList();
		this.updated = table.columns().stream().filter(ResourceTable.Column::updatable).toList();
		if (this.updated.isEmpty()) {
			throw new IllegalArgumentException(table.type().getName() + " has no updatable column to complete");
		}
		List<String> conditions = new ArrayList<>();
		for (ClaimGuard guard : this.guards) {
			String condition = guard.condition();
			conditions.add((condition != null) ? SqlChecks.clause(condition) : null);
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
		this.completion = completionStatement("status = 'IN_PROGRESS' AND attempt = ?");
		this.unfencedCompletion = completionStatement("(attempt = ? OR TRUE)");
	}

	ResourceTable<R> table() {
		return this.table;
	}

	/** Whether a fresh key of this resource can be claimed in one statement. */
	boolean claimsInOneStatement() {
		return this.claims != null;
	}

	/**
	 * What the claim in one statement did: the index of the first guard whose condition
	 * was not true ({@code -1} if none); whether the record and the resource were
	 * inserted; whether the statement was undone because the claim update did not update
	 * exactly one row (nothing of it written); and the key's record if it had one.
	 */
	record Claimed(int refusedBy, boolean claimed, boolean undone,
			IdempotencyRecords.@Nullable IdempotencyRecord existing) {

	}

	/**
	 * The claim in one statement: reads the key's record; evaluates every guard's
	 * condition (and the claim update's precheck); inserts the IN_PROGRESS record only if
	 * the key has none and all were true; makes the claim update, only if the record was
	 * inserted, and inserts the resource only then. Sets the fields the update returned
	 * on {@code resource}, and its version to 0.
	 */
	Claimed claim(String operation, ClaimRequest request, UUID resourceId, Instant now, Duration lease, R resource,
			Object[] claimArguments) {
		String[] statements = this.claims;
		if (statements == null) {
			throw new IllegalStateException("A guard declares no condition: no claim in one statement");
		}
		this.table.version().set(resource, 0L);
		List<Object> args = new ArrayList<>(this.inserted.size() + 16);
		args.add(request.scope().value());
		args.add(request.key().value());
		int mask = 0;
		for (int i = 0; i < this.guards.size(); i++) {
			Object[] guarded = this.guards.get(i).arguments(request.scope(), operation);
			if (guarded != null) {
				mask |= 1 << i;
				args.addAll(List.of(guarded));
			}
		}
		int updateArguments = requireClaimArguments(claimArguments);
		for (int i = updateArguments; i < claimArguments.length; i++) {
			args.add(claimArguments[i]);
		}
		args.addAll(
				List.of(request.scope().value(), request.key().value(), operation, request.fingerprint().sha256Hex(),
						IdempotencyRecords.micros(lease), resourceId, now.atOffset(ZoneOffset.UTC)));
		for (int i = 0; i < updateArguments; i++) {
			args.add(claimArguments[i]);
		}
		for (ResourceTable.Column column : this.inserted) {
			if (!fromUpdate(column)) {
				args.add(column.bind(resource));
			}
		}
		int included = mask;
		try {
			return this.jdbc.sql(statements[mask]).params(args).query((rs, row) -> {
				int refusedBy = -1;
				for (int i = 0; i < this.guards.size() && refusedBy < 0; i++) {
					if ((included & (1 << i)) != 0 && !rs.getBoolean("g" + i)) {
						refusedBy = i;
					}
				}
				boolean claimed = rs.getBoolean("claimed");
				if (claimed != rs.getBoolean("created")) {
					throw new IllegalStateException("The claim inserted the record without its resource");
				}
				if (claimed && this.update != null) {
					for (ResourceTable.ClaimUpdate.Into into : this.update.into()) {
						into.field().set(resource, into.field().fromDatabase(rs.getObject("r_" + into.returned())));
					}
				}
				IdempotencyRecords.IdempotencyRecord existing = (rs.getString("e_operation") != null)
						? this.records.record(rs, "e_") : null;
				return new Claimed(refusedBy, claimed, false, existing);
			}).single();
		}
		catch (RuntimeException ex) {
			if (IdempotencyRecords.isUndone(ex)) {
				return new Claimed(-1, false, true, null);
			}
			throw ex;
		}
	}

	/**
	 * The claim update alone, in the caller's claim transaction: sets the fields it
	 * returned on {@code resource}.
	 * @return the number of rows it updated (the claim stands only on 1)
	 */
	int updateForClaim(R resource, Object[] claimArguments) {
		ResourceTable.ClaimUpdate declared = this.update;
		String statement = this.claimUpdate;
		if (declared == null || statement == null) {
			return 1;
		}
		Object[] args = new Object[requireClaimArguments(claimArguments)];
		System.arraycopy(claimArguments, 0, args, 0, args.length);
		List<Object[]> rows = this.jdbc.sql(statement).params(args).query((rs, row) -> {
			Object[] values = new Object[declared.into().size()];
			for (int i = 0; i < values.length; i++) {
				values[i] = rs.getObject("r_" + declared.into().get(i).returned());
			}
			return values;
		}).list();
		if (rows.size() == 1) {
			for (int i = 0; i < declared.into().size(); i++) {
				ResourceTable.Accessor field = declared.into().get(i).field();
				field.set(resource, field.fromDatabase(rows.get(0)[i]));
			}
		}
		return rows.size();
	}

	/** Inserts the resource in the caller's claim transaction, with version 0. */
	void insert(R resource) {
		this.table.version().set(resource, 0L);
		Object[] args = new Object[this.inserted.size()];
		for (int i = 0; i < args.length; i++) {
			args[i] = this.inserted.get(i).bind(resource);
		}
		this.jdbc.sql(this.insert).params(args).update();
	}

	/**
	 * The resource as stored, for a takeover.
	 * @throws IllegalStateException if it does not exist
	 */
	R load(UUID id) {
		return load(this.select, id);
	}

	/** The resource, locked until the caller's transaction ends. */
	R loadForUpdate(UUID id) {
		return load(this.selectForUpdate, id);
	}

	private R load(String statement, UUID id) {
		return this.jdbc.sql(statement)
			.param(id)
			.query((rs, row) -> this.table.read(rs))
			.optional()
			.orElseThrow(() -> new IllegalStateException(
					"Claimed " + this.table.type().getSimpleName() + " " + id + " does not exist"));
	}

	/**
	 * Writes the moved resource in the caller's transaction, conditioned on its version,
	 * then the declared completion update; moves its version on by one.
	 * @throws IllegalStateException if either matched no row
	 */
	void write(R resource) {
		long version = version(resource);
		Object[] args = new Object[this.updated.size() + 2];
		int next = bindWrite(resource, version, args, 0);
		if (next != args.length || this.jdbc.sql(this.write).params(args).update() != 1) {
			throw new IllegalStateException(this.table.type().getSimpleName() + " " + this.table.id().bind(resource)
					+ " changed while it was locked");
		}
		ResourceTable.SecondWrite<R> declared = this.second;
		if (declared != null
				&& this.jdbc.sql(this.secondWrite).params(secondArguments(declared, resource)).update() != 1) {
			throw new IllegalStateException("The completion update of " + this.table.type().getSimpleName() + " "
					+ this.table.id().bind(resource) + " matched no row");
		}
		this.table.version().set(resource, version + 1);
	}

	/**
	 * The completion in one statement: the record locked if this attempt holds it, the
	 * resource's versioned write, the declared completion update, the record completed.
	 */
	IdempotencyRecords.Completion complete(Lease lease, R resource, StoredResponse response, Instant now,
			Duration retention) {
		long version = version(resource);
		List<Object> args = new ArrayList<>(this.updated.size() + 16);
		args.add(lease.scope().value());
		args.add(lease.key().value());
		args.add(lease.attempt());
		Object[] write = new Object[this.updated.size() + 2];
		bindWrite(resource, version, write, 0);
		args.addAll(List.of(write));
		ResourceTable.SecondWrite<R> declared = this.second;
		if (declared != null) {
			args.addAll(List.of(secondArguments(declared, resource)));
		}
		args.addAll(List.of(response.status(), this.records.headers(response), response.body(),
				now.atOffset(ZoneOffset.UTC), IdempotencyRecords.micros(retention), lease.scope().value(),
				lease.key().value(), lease.attempt()));
		IdempotencyRecords.Completion completion;
		try {
			completion = this.jdbc.sql(this.records.completionFenced() ? this.completion : this.unfencedCompletion)
				.params(args)
				.query((rs, row) -> rs.getBoolean("done") ? IdempotencyRecords.Completion.COMPLETED
						: rs.getBoolean("held") ? IdempotencyRecords.Completion.UNWRITTEN
								: IdempotencyRecords.Completion.STALE)
				.single();
		}
		catch (RuntimeException ex) {
			if (IdempotencyRecords.isUndone(ex)) {
				return IdempotencyRecords.Completion.UNWRITTEN;
			}
			throw ex;
		}
		if (completion == IdempotencyRecords.Completion.COMPLETED) {
			this.table.version().set(resource, version + 1);
		}
		return completion;
	}

	/**
	 * @return the number of the claim update's own arguments, which come first
	 * @throws IllegalArgumentException unless there is one argument per placeholder of
	 * the claim update and its precheck
	 */
	private int requireClaimArguments(Object[] claimArguments) {
		ResourceTable.ClaimUpdate declared = this.update;
		int own = (declared != null) ? declared.arguments() : 0;
		int expected = own + ((declared != null) ? declared.precheckArguments() : 0);
		if (claimArguments.length != expected) {
			throw new IllegalArgumentException("The claim update of " + this.table.type().getSimpleName() + " has "
					+ expected + " placeholders and " + claimArguments.length + " arguments");
		}
		return own;
	}

	/** The resource's id. */
	@Nullable Object id(R resource) {
		return this.table.id().accessor().get(resource);
	}

	private long version(R resource) {
		Object version = this.table.version().accessor().get(resource);
		if (!(version instanceof Number number)) {
			throw new IllegalStateException(this.table.type().getSimpleName() + " was never stored");
		}
		return number.longValue();
	}

	private int bindWrite(R resource, long version, Object[] args, int from) {
		int next = from;
		for (ResourceTable.Column column : this.updated) {
			args[next++] = column.bind(resource);
		}
		args[next++] = this.table.id().bind(resource);
		args[next++] = version;
		return next;
	}

	private Object[] secondArguments(ResourceTable.SecondWrite<R> declared, R resource) {
		Object[] args = declared.arguments().apply(resource);
		if (args.length != declared.placeholders()) {
			throw new IllegalStateException("The completion update of " + this.table.type().getSimpleName() + " has "
					+ declared.placeholders() + " placeholders and " + args.length + " arguments");
		}
		return args;
	}

	private boolean fromUpdate(ResourceTable.Column column) {
		return returnedFor(column) != null;
	}

	private @Nullable String returnedFor(ResourceTable.Column column) {
		ResourceTable.ClaimUpdate declared = this.update;
		if (declared == null || column.owner() != null) {
			return null;
		}
		for (ResourceTable.ClaimUpdate.Into into : declared.into()) {
			if (into.field().name().equals(column.accessor().name())) {
				return into.returned();
			}
		}
		return null;
	}

	private String assignments() {
		StringBuilder set = new StringBuilder();
		for (ResourceTable.Column column : this.updated) {
			set.append(column.name()).append(" = ?, ");
		}
		String version = this.table.version().name();
		return set.append(version).append(" = ").append(version).append(" + 1").toString();
	}

	private static String updateStatement(ResourceTable.ClaimUpdate update, String condition) {
		StringBuilder returning = new StringBuilder();
		for (ResourceTable.ClaimUpdate.Into into : update.into()) {
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
		ResourceTable.ClaimUpdate declared = this.update;
		if (declared != null && declared.precheck() != null) {
			guard.append(", (").append(declared.precheck()).append(") IS TRUE AS p");
			passed.append(" AND p");
		}
		deadline.bound()
			.ifPresent((bound) -> guard.append(" FROM (SELECT set_config('lock_timeout', '")
				.append(bound.toMillis())
				.append("ms', true) AS lock_timeout) AS bound"));
		List<String> values = new ArrayList<>(this.inserted.size());
		for (ResourceTable.Column column : this.inserted) {
			String returned = returnedFor(column);
			values.add((returned != null) ? "updated.r_" + returned : "?");
		}
		StringBuilder sql = new StringBuilder("WITH existing AS (" + EXISTING + "),\n");
		sql.append("guard AS (")
			.append(guard)
			.append("),\n")
			.append("""
					claimed AS (INSERT INTO idempotency_records
					    (client_id, idempotency_key, operation, request_fingerprint, status, locked_until, attempt, resource_id, created_at)
					    SELECT ?, ?, ?, ?, 'IN_PROGRESS', statement_timestamp() + ? * INTERVAL '1 microsecond', 1, ?, ?
					    FROM guard WHERE %s AND NOT EXISTS (SELECT 1 FROM existing)
					    ON CONFLICT (client_id, idempotency_key) DO NOTHING
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
		for (ResourceTable.ClaimUpdate.Into into : declared.into()) {
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
	 * record completed only if the last one did; with two writes, one that matched no row
	 * after the first wrote undoes the statement.
	 */
	private String completionStatement(String fence) {
		StringBuilder sql = new StringBuilder("""
				WITH held AS (SELECT 1 FROM idempotency_records
				    WHERE client_id = ? AND idempotency_key = ? AND %s
				    FOR UPDATE),
				w0 AS (UPDATE %s SET %s WHERE %s = ? AND %s = ? AND EXISTS (SELECT 1 FROM held) RETURNING 1)"""
			.formatted(fence, this.table.table(), assignments(), this.table.id().name(), this.table.version().name()));
		String last = "w0";
		ResourceTable.SecondWrite<R> declared = this.second;
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
				    WHERE client_id = ? AND idempotency_key = ? AND %s
				      AND EXISTS (SELECT 1 FROM %s) RETURNING 1)
				SELECT EXISTS (SELECT 1 FROM held) AS held, EXISTS (SELECT 1 FROM done) AS done""".formatted(fence,
				last));
		if (declared != null) {
			sql.append(
					"""
							,
							       CASE WHEN EXISTS (SELECT 1 FROM w0) AND NOT EXISTS (SELECT 1 FROM done)
							            THEN idempotency_undo('a later write of the completion matched no row') END AS undone""");
		}
		return sql.toString();
	}

	private static String names(List<ResourceTable.Column> columns, String prefix) {
		StringBuilder names = new StringBuilder();
		for (ResourceTable.Column column : columns) {
			names.append((names.length() > 0) ? ", " : "").append(prefix).append(column.name());
		}
		return names.toString();
	}

	private static String repeat(String placeholder, int count) {
		return String.join(", ", java.util.Collections.nCopies(count, placeholder));
	}

}
