package dev.payonce.idempotency;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code idempotency_records} table. Plain SQL: the claim needs
 * {@code INSERT ... ON CONFLICT DO NOTHING} and every state change is a conditional
 * {@code UPDATE} fenced by the attempt number, which an ORM would only hide. Every method
 * runs in the caller's transaction.
 *
 * <p>
 * Every time that one instance writes and another compares (a lease's end, a stored
 * response's expiry) is taken from the database's clock, never from the caller's: each
 * statement reads {@code statement_timestamp()}, the moment PostgreSQL received it, so
 * instances whose clocks disagree still agree on when a lease ends (docs/design.md
 * section 4, "One clock for leases"). Durations go in as microseconds and come back as
 * time left by that clock; the caller turns them into instants of its own clock.
 */
@Repository
class IdempotencyRecords {

	private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {
	};

	/**
	 * {@link #statement} stops keeping new texts once it holds this many (concurrent
	 * first calls may each add one past it).
	 */
	private static final int CACHED_STATEMENTS = 64;

	private final Map<List<String>, String> statements = new ConcurrentHashMap<>();

	private final JdbcClient jdbc;

	/**
	 * Whether a completion is fenced by the attempt (always, but in a test that breaks it
	 * on purpose: {@link #switchOffCompletionFence}).
	 */
	private volatile boolean completionFenced = true;

	private final JsonMapper json;

	/** The claim in one statement's deadline (docs/design.md section 11). */
	private final ClaimDeadline deadline;

	IdempotencyRecords(JdbcClient jdbc, JsonMapper json, DataSource dataSource) {
		this.jdbc = jdbc;
		this.json = json;
		this.deadline = ClaimDeadline.of(dataSource);
	}

	/**
	 * The claim: inserts an IN_PROGRESS record unless the key has one, its lease ending
	 * {@code lease} after the database's {@code statement_timestamp()}; true if inserted.
	 */
	boolean insertClaim(String operation, ClaimRequest request, UUID resourceId, Instant now, Duration lease) {
		return this.jdbc
			.sql("""
					INSERT INTO idempotency_records
					    (client_id, idempotency_key, operation, request_fingerprint, status, locked_until, attempt, resource_id, created_at)
					VALUES (:clientId, :key, :operation, :fingerprint, 'IN_PROGRESS',
					        statement_timestamp() + :lease * INTERVAL '1 microsecond', 1, :resourceId, :now)
					ON CONFLICT (client_id, idempotency_key) DO NOTHING
					""")
			.param("clientId", request.scope().value())
			.param("operation", operation)
			.param("key", request.key().value())
			.param("fingerprint", request.fingerprint().sha256Hex())
			.param("lease", micros(lease))
			.param("resourceId", resourceId)
			.param("now", utc(now))
			.update() == 1;
	}

	/**
	 * What {@link #claimWith} did: the index of the first condition that was not true
	 * ({@code -1} if every one was); whether the record and the resource were inserted;
	 * whether the statement was undone because the insert's {@link ClaimUpdate} did not
	 * update exactly one row (then nothing of it was written); and what that update
	 * returned (empty unless claimed).
	 */
	record ClaimedWith(int refusedBy, boolean claimed, boolean undone, Map<String, @Nullable Object> returned) {

		static ClaimedWith wasUndone() {
			return new ClaimedWith(-1, false, true, Map.of());
		}

	}

	/**
	 * The claim in one statement (docs/design.md section 4, "The claim in one
	 * statement"): evaluates every condition once, then inserts the IN_PROGRESS record
	 * only if all were true (and the insert's {@link ClaimUpdate#precheck}, if it has
	 * one) and the key has no record ({@code ON CONFLICT DO NOTHING}), then makes the
	 * insert's {@link ClaimUpdate} if it has one, only if the record was inserted, and
	 * inserts the resource only if the record was inserted (and the update updated its
	 * row). If the record was inserted but the update did not update exactly one row, the
	 * statement calls {@code idempotency_undo}, which aborts it: nothing of it stays.
	 * Runs in the caller's transaction, or on its own if there is none. Its waits are
	 * bounded by the {@link ClaimDeadline}: each lock wait by {@code lock_timeout}, and
	 * the whole statement by a last step that aborts it once the deadline has passed
	 * (SQLSTATE {@code 55P03} either way, a {@code DataAccessException}: nothing of it
	 * stays, and it never commits after the driver gave up on it).
	 * @throws IllegalStateException if the record was inserted without the resource (a
	 * broken invariant; impossible, as the resource's {@code INSERT} reads the record's)
	 */
	ClaimedWith claimWith(String operation, ClaimRequest request, UUID resourceId, Instant now, Duration lease,
			List<ClaimCondition> conditions, ResourceInsert<?> insert) {
		ClaimUpdate update = insert.update();
		List<Object> args = new ArrayList<>();
		List<String> shape = new ArrayList<>(conditions.size() + 2 * insert.columns().size() + 8);
		shape.add("claim " + conditions.size());
		for (ClaimCondition condition : conditions) {
			shape.add(condition.sql());
			args.addAll(condition.args());
		}
		String precheck = (update != null) ? update.precheck() : null;
		if (update != null && precheck != null) {
			shape.add("precheck");
			shape.add(precheck);
			args.addAll(update.precheckArgs());
		}
		args.addAll(List.of(request.scope().value(), request.key().value(), operation,
				request.fingerprint().sha256Hex(), micros(lease), resourceId, utc(now)));
		if (update != null) {
			shape.add("update " + update.returning().size());
			shape.add(update.table());
			shape.add(update.set());
			shape.add(String.valueOf(update.from()));
			shape.add(update.where());
			shape.addAll(update.returning());
			args.addAll(update.args());
		}
		shape.add(insert.table());
		shape.addAll(insert.columns());
		for (Object value : insert.values()) {
			if (value instanceof ResourceInsert.Returned returned) {
				shape.add("returned " + returned.column());
			}
			else {
				shape.add("?");
				args.add(value);
			}
		}
		String sql = statement(shape, () -> claimStatement(conditions, insert, this.deadline));
		try {
			return this.jdbc.sql(sql).params(args).query((rs, row) -> {
				int refusedBy = -1;
				for (int i = 0; i < conditions.size() && refusedBy < 0; i++) {
					if (!rs.getBoolean("g" + i)) {
						refusedBy = i;
					}
				}
				boolean claimed = rs.getBoolean("claimed");
				if (claimed != rs.getBoolean("created")) {
					throw new IllegalStateException("The claim inserted the record without its resource");
				}
				Map<String, @Nullable Object> returned = new HashMap<>();
				if (claimed && update != null) {
					// After guard (g, g0.., p), claimed and created come the
					// returned columns.
					int first = conditions.size() + 4 + ((precheck != null) ? 1 : 0);
					for (int i = 0; i < update.returning().size(); i++) {
						returned.put(update.returning().get(i), rs.getObject(first + i));
					}
				}
				return new ClaimedWith(refusedBy, claimed, false, returned);
			}).single();
		}
		catch (RuntimeException ex) {
			if (isUndone(ex)) {
				return ClaimedWith.wasUndone();
			}
			throw ex;
		}
	}

	private static String claimStatement(List<ClaimCondition> conditions, ResourceInsert<?> insert,
			ClaimDeadline deadline) {
		// The deadline is set before any condition is evaluated, so it bounds every lock
		// wait of the statement (the FROM item's row comes first); checked again last.
		String lockTimeout = deadline.bound().map((bound) -> "bound.lock_timeout IS NOT NULL").orElse("TRUE");
		String late = deadline.bound().map((bound) -> """
				,
				       CASE WHEN clock_timestamp() > statement_timestamp() + INTERVAL '%d microseconds'
				            THEN idempotency_claim_late() END AS late""".formatted(bound.toNanos() / 1000)).orElse("");
		StringBuilder guard = new StringBuilder("SELECT " + lockTimeout + " AS g");
		StringBuilder passed = new StringBuilder("g");
		for (int i = 0; i < conditions.size(); i++) {
			guard.append(", (").append(conditions.get(i).sql()).append(") IS TRUE AS g").append(i);
			passed.append(" AND g").append(i);
		}
		ClaimUpdate update = insert.update();
		if (update != null && update.precheck() != null) {
			guard.append(", (").append(update.precheck()).append(") IS TRUE AS p");
			passed.append(" AND p");
		}
		deadline.bound()
			.ifPresent((bound) -> guard.append(" FROM (SELECT set_config('lock_timeout', '")
				.append(bound.toMillis())
				.append("ms', true) AS lock_timeout) AS bound"));
		List<String> values = new ArrayList<>(insert.values().size());
		for (Object value : insert.values()) {
			values.add((value instanceof ResourceInsert.Returned returned) ? "updated." + returned.column() : "?");
		}
		String claimed = """
				WITH guard AS (%s),
				claimed AS (INSERT INTO idempotency_records
				    (client_id, idempotency_key, operation, request_fingerprint, status, locked_until, attempt, resource_id, created_at)
				    SELECT ?, ?, ?, ?, 'IN_PROGRESS', statement_timestamp() + ? * INTERVAL '1 microsecond', 1, ?, ?
				    FROM guard WHERE %s
				    ON CONFLICT (client_id, idempotency_key) DO NOTHING
				    RETURNING resource_id),
				"""
			.formatted(guard, passed);
		if (update == null) {
			return claimed
					+ """
							created AS (INSERT INTO %s (%s) SELECT %s FROM claimed RETURNING 1)
							SELECT guard.*, EXISTS (SELECT 1 FROM claimed) AS claimed, EXISTS (SELECT 1 FROM created) AS created%s
							FROM guard"""
						.formatted(insert.table(), String.join(", ", insert.columns()), String.join(", ", values),
								late);
		}
		String returning = String.join(", ", update.returning());
		return claimed
				+ """
						updated AS (UPDATE %s SET %s%s WHERE (%s) AND EXISTS (SELECT 1 FROM claimed) RETURNING %s),
						created AS (INSERT INTO %s (%s) SELECT %s FROM claimed, updated RETURNING 1)
						SELECT guard.*, EXISTS (SELECT 1 FROM claimed) AS claimed, EXISTS (SELECT 1 FROM created) AS created, %s,
						       CASE WHEN EXISTS (SELECT 1 FROM claimed) AND (SELECT count(*) FROM updated) <> 1
						            THEN idempotency_undo('the claim update did not update exactly one row') END AS undone%s
						FROM guard LEFT JOIN (SELECT %s FROM updated LIMIT 1) AS u ON TRUE"""
					.formatted(update.table(), update.set(), (update.from() != null) ? " FROM " + update.from() : "",
							update.where(), returning, insert.table(), String.join(", ", insert.columns()),
							String.join(", ", values), prefixed("u.", update.returning()), late, returning);
	}

	private static String prefixed(String prefix, List<String> names) {
		StringBuilder joined = new StringBuilder();
		for (String name : names) {
			joined.append((joined.length() > 0) ? ", " : "").append(prefix).append(name);
		}
		return joined.toString();
	}

	/**
	 * Whether {@code ex} is {@code idempotency_undo}'s SQLSTATE {@code PYU01}: the
	 * statement was undone on purpose, nothing of it written.
	 */
	static boolean isUndone(Throwable ex) {
		return causedBySqlState(ex, "PYU01");
	}

	/**
	 * Whether an {@link SQLException} in {@code ex}'s cause chain has one of the
	 * SQLSTATEs.
	 */
	static boolean causedBySqlState(Throwable ex, String... states) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLException sql) {
				for (String state : states) {
					if (state.equals(sql.getSQLState())) {
						return true;
					}
				}
			}
		}
		return false;
	}

	/**
	 * The statement text for {@code shape} (the SQL pieces it is built from), built once:
	 * the pieces come from code, so there are a handful of shapes; past
	 * {@value #CACHED_STATEMENTS} the text is built on each call instead of growing the
	 * cache. Issue 13's profile: building the texts and checking their pieces on every
	 * claim and completion were about 6 % of a new payment's Java CPU samples
	 * (docs/design.md section 4).
	 * @param shape the pieces, compared by value; copied when kept
	 * @param build builds the text from the same pieces
	 */
	private String statement(List<String> shape, Supplier<String> build) {
		String sql = this.statements.get(shape);
		if (sql == null) {
			sql = build.get();
			if (this.statements.size() < CACHED_STATEMENTS) {
				this.statements.putIfAbsent(List.copyOf(shape), sql);
			}
		}
		return sql;
	}

	Optional<IdempotencyRecord> find(ClaimRequest request) {
		return this.jdbc.sql("""
				SELECT operation, request_fingerprint, status, attempt, resource_id,
				       response_status, response_headers, response_body,
				       CAST(EXTRACT(EPOCH FROM locked_until - statement_timestamp()) * 1000000 AS bigint) AS lease_left,
				       CAST(EXTRACT(EPOCH FROM expires_at - statement_timestamp()) * 1000000 AS bigint) AS expires_in
				FROM idempotency_records
				WHERE client_id = :clientId AND idempotency_key = :key
				""")
			.param("clientId", request.scope().value())
			.param("key", request.key().value())
			.query((rs, row) -> new IdempotencyRecord(rs.getString("operation"),
					new RequestFingerprint(rs.getString("request_fingerprint")), rs.getString("status"),
					duration(rs.getObject("lease_left", Long.class)), rs.getInt("attempt"),
					rs.getObject("resource_id", UUID.class),
					storedResponse(rs.getInt("response_status"), rs.getString("response_headers"),
							rs.getString("response_body")),
					duration(rs.getObject("expires_in", Long.class))))
			.optional();
	}

	/**
	 * Takeover of an expired lease, fenced by the attempt that was seen expired: only if
	 * the lease has ended by the database's clock; the new lease ends {@code lease} after
	 * it.
	 */
	boolean takeOver(ClaimRequest request, int expiredAttempt, Duration lease) {
		return this.jdbc.sql("""
				UPDATE idempotency_records
				SET attempt = attempt + 1, locked_until = statement_timestamp() + :lease * INTERVAL '1 microsecond'
				WHERE client_id = :clientId AND idempotency_key = :key
				  AND status = 'IN_PROGRESS' AND attempt = :attempt AND locked_until <= statement_timestamp()
				""")
			.param("clientId", request.scope().value())
			.param("key", request.key().value())
			.param("attempt", expiredAttempt)
			.param("lease", micros(lease))
			.update() == 1;
	}

	/**
	 * Deletes up to {@code limit} COMPLETED records that have expired by the database's
	 * clock, oldest first. {@code SKIP LOCKED}: concurrent cleanups on several instances
	 * delete disjoint rows and never wait on each other or on a claim. Never touches
	 * IN_PROGRESS records. The batch is chosen once ({@code MATERIALIZED}): a plan that
	 * scanned it again for each row would skip the rows this statement already deleted
	 * (locked by itself) and go on past the limit.
	 */
	int deleteExpired(int limit) {
		return this.jdbc.sql("""
				WITH expired AS MATERIALIZED (
				    SELECT client_id, idempotency_key FROM idempotency_records
				    WHERE status = 'COMPLETED' AND expires_at <= statement_timestamp()
				    ORDER BY expires_at
				    LIMIT :limit
				    FOR UPDATE SKIP LOCKED)
				DELETE FROM idempotency_records r
				USING expired
				WHERE r.client_id = expired.client_id AND r.idempotency_key = expired.idempotency_key
				  AND r.status = 'COMPLETED'
				""").param("limit", limit).update();
	}

	/**
	 * Takes over up to {@code limit} records of one operation whose lease ended at least
	 * {@code staleAfter} ago by the database's clock, in one statement, each new lease
	 * ending {@code lease} after that clock's now (the returned leases carry the caller's
	 * {@code lockedUntil}): {@code SKIP LOCKED} lets several instances run it at once
	 * without waiting on each other, and the attempt increment fences out every earlier
	 * holder. The batch is chosen once ({@code MATERIALIZED}), so a plan that scanned it
	 * again could not go past the limit.
	 */
	List<Lease> takeOverStale(String operation, Duration staleAfter, Duration lease, Instant lockedUntil, int limit) {
		return this.jdbc.sql("""
				WITH stale AS MATERIALIZED (
				    SELECT client_id, idempotency_key FROM idempotency_records
				    WHERE status = 'IN_PROGRESS' AND operation = :operation
				      AND locked_until <= statement_timestamp() - :staleAfter * INTERVAL '1 microsecond'
				    ORDER BY locked_until
				    LIMIT :limit
				    FOR UPDATE SKIP LOCKED)
				UPDATE idempotency_records r
				SET attempt = r.attempt + 1, locked_until = statement_timestamp() + :lease * INTERVAL '1 microsecond'
				FROM stale
				WHERE r.client_id = stale.client_id AND r.idempotency_key = stale.idempotency_key
				RETURNING r.client_id, r.operation, r.idempotency_key, r.resource_id, r.attempt
				""")
			.param("operation", operation)
			.param("staleAfter", micros(staleAfter))
			.param("lease", micros(lease))
			.param("limit", limit)
			.query((rs, row) -> new Lease(new IdempotencyScope(rs.getString("client_id")), rs.getString("operation"),
					new IdempotencyKey(rs.getString("idempotency_key")), rs.getObject("resource_id", UUID.class),
					rs.getInt("attempt"), lockedUntil))
			.list();
	}

	/**
	 * Takes over the IN_PROGRESS record of one operation's resource whose lease has ended
	 * by the database's clock, the new lease ending {@code lease} after that clock's now
	 * (the returned lease carries the caller's {@code lockedUntil}). One conditional
	 * UPDATE: of concurrent callers (webhook deliveries, a client retry, the reconciler)
	 * at most one matches while the lease is live again. Scoped by operation, so a
	 * payment's caller never takes over a refund's record.
	 */
	Optional<Lease> takeOverResource(String operation, IdempotencyScope scope, UUID resourceId, Duration lease,
			Instant lockedUntil) {
		return this.jdbc.sql("""
				UPDATE idempotency_records
				SET attempt = attempt + 1, locked_until = statement_timestamp() + :lease * INTERVAL '1 microsecond'
				WHERE resource_id = :resourceId AND client_id = :clientId AND operation = :operation
				  AND status = 'IN_PROGRESS' AND locked_until <= statement_timestamp()
				RETURNING client_id, operation, idempotency_key, resource_id, attempt
				""")
			.param("lease", micros(lease))
			.param("resourceId", resourceId)
			.param("clientId", scope.value())
			.param("operation", operation)
			.query((rs, row) -> new Lease(new IdempotencyScope(rs.getString("client_id")), rs.getString("operation"),
					new IdempotencyKey(rs.getString("idempotency_key")), rs.getObject("resource_id", UUID.class),
					rs.getInt("attempt"), lockedUntil))
			.optional();
	}

	/** Counts IN_PROGRESS records whose lease has ended by the database's clock. */
	long countExpiredLeases() {
		return this.jdbc.sql("""
				SELECT count(*) FROM idempotency_records
				WHERE status = 'IN_PROGRESS' AND locked_until <= statement_timestamp()
				""").query(Long.class).single();
	}

	/**
	 * How long ago, by the database's clock, the earliest-ended lease of an IN_PROGRESS
	 * record ended: one step of the partial index {@code ix_idempotency_records_lease}.
	 * @return empty if no lease has ended
	 */
	Optional<Duration> oldestExpiredLease() {
		return this.jdbc.sql("""
				SELECT CAST(EXTRACT(EPOCH FROM statement_timestamp() - locked_until) * 1000000 AS bigint)
				FROM idempotency_records
				WHERE status = 'IN_PROGRESS' AND locked_until <= statement_timestamp()
				ORDER BY locked_until LIMIT 1
				""").query(Long.class).optional().map(IdempotencyRecords::duration);
	}

	/**
	 * How long ago, by the database's clock, the earliest-expired COMPLETED record
	 * expired: one step of the partial index {@code ix_idempotency_records_expiry}.
	 * @return empty if none has expired
	 */
	Optional<Duration> oldestExpiry() {
		return this.jdbc.sql("""
				SELECT CAST(EXTRACT(EPOCH FROM statement_timestamp() - expires_at) * 1000000 AS bigint)
				FROM idempotency_records
				WHERE status = 'COMPLETED' AND expires_at <= statement_timestamp()
				ORDER BY expires_at LIMIT 1
				""").query(Long.class).optional().map(IdempotencyRecords::duration);
	}

	/**
	 * Deletes the key's record if it is COMPLETED and past its expiry by the database's
	 * clock; true if deleted.
	 */
	boolean deleteIfExpired(ClaimRequest request) {
		return this.jdbc.sql("""
				DELETE FROM idempotency_records
				WHERE client_id = :clientId AND idempotency_key = :key
				  AND status = 'COMPLETED' AND expires_at <= statement_timestamp()
				""").param("clientId", request.scope().value()).param("key", request.key().value()).update() == 1;
	}

	/**
	 * Locks the record for completion if this lease's attempt still holds it; true if so.
	 * The row lock lasts until the caller's transaction ends, so no takeover can slip in
	 * between this check and {@link #complete}.
	 */
	boolean lockIfHeld(Lease lease) {
		return this.jdbc.sql("""
				SELECT 1 FROM idempotency_records
				WHERE client_id = :clientId AND idempotency_key = :key
				  AND %s
				FOR UPDATE
				""".formatted(completionFence(":attempt")))
			.param("clientId", lease.scope().value())
			.param("key", lease.key().value())
			.param("attempt", lease.attempt())
			.query(Integer.class)
			.optional()
			.isPresent();
	}

	/**
	 * Fenced completion: true if this lease's attempt still held the record. The stored
	 * response expires {@code retention} after the database's clock.
	 */
	boolean complete(Lease lease, StoredResponse response, Instant now, Duration retention) {
		return this.jdbc.sql("""
				UPDATE idempotency_records
				SET status = 'COMPLETED', locked_until = NULL, response_status = :status,
				    response_headers = CAST(:headers AS jsonb), response_body = :body, completed_at = :now,
				    expires_at = statement_timestamp() + :retention * INTERVAL '1 microsecond'
				WHERE client_id = :clientId AND idempotency_key = :key
				  AND %s
				""".formatted(completionFence(":attempt")))
			.param("status", response.status())
			.param("headers", this.json.writeValueAsString(response.headers()))
			.param("body", response.body())
			.param("now", utc(now))
			.param("retention", micros(retention))
			.param("clientId", lease.scope().value())
			.param("key", lease.key().value())
			.param("attempt", lease.attempt())
			.update() == 1;
	}

	/**
	 * The completion's fence on the record (docs/design.md section 4): still
	 * {@code IN_PROGRESS} and held by this attempt. Switched off, any existing record
	 * matches (the attempt's parameter is still bound, and ignored), as the model's
	 * {@code NO_FENCE} mutant has it (docs/design.md section 14).
	 * @param attempt the attempt's parameter, {@code ?} or {@code :attempt}
	 */
	private String completionFence(String attempt) {
		return this.completionFenced ? "status = 'IN_PROGRESS' AND attempt = " + attempt
				: "(attempt = " + attempt + " OR TRUE)";
	}

	/**
	 * Breaks the engine on purpose: from now on a completion is not fenced by the
	 * attempt, so a stale attempt's completion writes. Only for a test that must see the
	 * break reported (docs/design.md section 14, "The soaks, checked as histories"). No
	 * property or profile reaches it: it is package-private, and a test checks that no
	 * class of the application calls it.
	 */
	void switchOffCompletionFence() {
		this.completionFenced = false;
	}

	/** What {@link #completeWith} did. */
	enum Completion {

		/** The resource was written and the response stored. */
		COMPLETED,

		/**
		 * The attempt still holds the record, but a write matched no row: nothing
		 * changed.
		 */
		UNWRITTEN,

		/**
		 * Another attempt holds the record or it is no longer IN_PROGRESS: nothing
		 * changed.
		 */
		STALE

	}

	/**
	 * The fenced completion in one statement (docs/design.md section 4, "Completion in
	 * one statement"): locks the record if this lease's attempt holds it
	 * ({@code FOR UPDATE}, as {@link #lockIfHeld}), runs each write only if the one
	 * before wrote a row (the first only if the lock was taken), and completes the record
	 * only if the last one did. The lock comes first, so a takeover waits for this
	 * statement's transaction and then finds the record no longer IN_PROGRESS. With
	 * several writes, one that matches no row after an earlier one wrote makes the
	 * statement call {@code idempotency_undo}, which aborts it (answered
	 * {@link Completion#UNWRITTEN}): nothing of it stays, so it needs no transaction of
	 * its own. Runs in the caller's transaction (which is then aborted), or on its own if
	 * there is none.
	 * @param writes at least one
	 */
	Completion completeWith(Lease lease, StoredResponse response, Instant now, Duration retention,
			List<ResourceWrite> writes) {
		if (writes.isEmpty()) {
			throw new IllegalArgumentException("A completion in one statement writes the resource");
		}
		List<Object> args = new ArrayList<>(List.of(lease.scope().value(), lease.key().value(), lease.attempt()));
		List<String> shape = new ArrayList<>(3 * writes.size() + 2);
		shape.add("complete " + writes.size());
		shape.add(completionFence("?"));
		for (ResourceWrite write : writes) {
			shape.add(write.table());
			shape.add(write.set());
			shape.add(write.where());
			args.addAll(write.args());
		}
		args.addAll(List.of(response.status(), this.json.writeValueAsString(response.headers()), response.body(),
				utc(now), micros(retention), lease.scope().value(), lease.key().value(), lease.attempt()));
		String sql = statement(shape, () -> completionStatement(writes, completionFence("?")));
		try {
			return this.jdbc.sql(sql)
				.params(args)
				.query((rs, row) -> rs.getBoolean("done") ? Completion.COMPLETED
						: rs.getBoolean("held") ? Completion.UNWRITTEN : Completion.STALE)
				.single();
		}
		catch (RuntimeException ex) {
			if (isUndone(ex)) {
				return Completion.UNWRITTEN;
			}
			throw ex;
		}
	}

	private static String completionStatement(List<ResourceWrite> writes, String fence) {
		StringBuilder sql = new StringBuilder("""
				WITH held AS (SELECT 1 FROM idempotency_records
				    WHERE client_id = ? AND idempotency_key = ? AND %s
				    FOR UPDATE)""".formatted(fence));
		String previous = "held";
		for (int i = 0; i < writes.size(); i++) {
			ResourceWrite write = writes.get(i);
			String name = "w" + i;
			sql.append(",\n")
				.append(name)
				.append(" AS (UPDATE ")
				.append(write.table())
				.append(" SET ")
				.append(write.set())
				.append(" WHERE (")
				.append(write.where())
				.append(") AND EXISTS (SELECT 1 FROM ")
				.append(previous)
				.append(") RETURNING 1)");
			previous = name;
		}
		return sql
			.append("""
					,
					done AS (UPDATE idempotency_records
					    SET status = 'COMPLETED', locked_until = NULL, response_status = ?,
					        response_headers = CAST(? AS jsonb), response_body = ?, completed_at = ?,
					        expires_at = statement_timestamp() + ? * INTERVAL '1 microsecond'
					    WHERE client_id = ? AND idempotency_key = ? AND %s
					      AND EXISTS (SELECT 1 FROM %s) RETURNING 1)
					SELECT EXISTS (SELECT 1 FROM held) AS held, EXISTS (SELECT 1 FROM done) AS done""".formatted(fence,
					previous))
			// Several writes: if an earlier one wrote and a later one did not, the
			// statement is undone, so that none of it stays.
			.append((writes.size() > 1) ? """
					,
					       CASE WHEN EXISTS (SELECT 1 FROM w0) AND NOT EXISTS (SELECT 1 FROM done)
					            THEN idempotency_undo('a later write of the completion matched no row') END AS undone"""
					: "")
			.toString();
	}

	/**
	 * Fenced release: ends the lease now, by the database's clock, so the next request
	 * may take over at once.
	 */
	boolean release(Lease lease) {
		return this.jdbc.sql("""
				UPDATE idempotency_records
				SET locked_until = statement_timestamp()
				WHERE client_id = :clientId AND idempotency_key = :key
				  AND status = 'IN_PROGRESS' AND attempt = :attempt
				""")
			.param("clientId", lease.scope().value())
			.param("key", lease.key().value())
			.param("attempt", lease.attempt())
			.update() == 1;
	}

	/**
	 * Counts the scope's live records (in progress, or completed and not expired by the
	 * database's clock), but stops at {@code limit}: the cost is bounded by the cap, not
	 * by the scope's size.
	 */
	long countLive(String scope, long limit) {
		return this.jdbc.sql("""
				SELECT count(*) FROM (
				    SELECT 1 FROM idempotency_records
				    WHERE client_id = :scope AND (status = 'IN_PROGRESS' OR expires_at > statement_timestamp())
				    LIMIT :limit) live
				""").param("scope", scope).param("limit", limit).query(Long.class).single();
	}

	/**
	 * How long, by the database's clock, until the scope's oldest live completed record
	 * expires.
	 */
	Optional<Duration> oldestExpiry(String scope) {
		return this.jdbc.sql("""
				SELECT CAST(EXTRACT(EPOCH FROM min(expires_at) - statement_timestamp()) * 1000000 AS bigint)
				FROM idempotency_records
				WHERE client_id = :scope AND status = 'COMPLETED' AND expires_at > statement_timestamp()
				""")
			.param("scope", scope)
			.query((rs, row) -> duration(rs.getObject(1, Long.class)))
			.optional()
			.flatMap(Optional::ofNullable);
	}

	/** Whether the key has a record, in whatever state. */
	boolean exists(String scope, IdempotencyKey key) {
		return this.jdbc.sql("""
				SELECT EXISTS (SELECT 1 FROM idempotency_records WHERE client_id = :scope AND idempotency_key = :key)
				""").param("scope", scope).param("key", key.value()).query(Boolean.class).single();
	}

	private @Nullable StoredResponse storedResponse(int status, @Nullable String headers, @Nullable String body) {
		if (status == 0 || headers == null || body == null) {
			return null;
		}
		return new StoredResponse(status, this.json.readValue(headers, HEADERS), body);
	}

	private static OffsetDateTime utc(Instant instant) {
		return instant.atOffset(ZoneOffset.UTC);
	}

	/** A duration as whole microseconds, the resolution of PostgreSQL's timestamps. */
	private static long micros(Duration duration) {
		return duration.toNanos() / 1000;
	}

	private static @Nullable Duration duration(@Nullable Long micros) {
		return (micros != null) ? Duration.ofNanos(micros * 1000) : null;
	}

	/**
	 * One row, as read. Its times are durations from the moment the database read it, by
	 * the database's clock: {@code leaseLeft} until the lease ends (zero or negative once
	 * it has), {@code expiresIn} until the stored response expires.
	 */
	record IdempotencyRecord(String operation, RequestFingerprint fingerprint, String status,
			@Nullable Duration leaseLeft, int attempt, UUID resourceId, @Nullable StoredResponse response,
			@Nullable Duration expiresIn) {

		/** Whether the lease is still running by the database's clock. */
		boolean leaseLive() {
			return this.leaseLeft != null && this.leaseLeft.isPositive();
		}

		/**
		 * Whether the record is COMPLETED and past its expiry by the database's clock.
		 */
		boolean expired() {
			return completed() && this.expiresIn != null && !this.expiresIn.isPositive();
		}

		/**
		 * Whether a request of this operation with this fingerprint is the same request.
		 */
		boolean sameRequest(String operation, RequestFingerprint fingerprint) {
			return this.operation.equals(operation) && this.fingerprint.equals(fingerprint);
		}

		boolean completed() {
			return "COMPLETED".equals(this.status);
		}

	}

}
