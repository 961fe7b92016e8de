package dev.payonce.idempotency;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

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

	private final JdbcClient jdbc;

	/**
	 * Whether a completion is fenced by the attempt (always, but in a test that breaks it
	 * on purpose: {@link #switchOffCompletionFence}).
	 */
	private volatile boolean completionFenced = true;

	private final JsonMapper json;

	IdempotencyRecords(JdbcClient jdbc, JsonMapper json) {
		this.jdbc = jdbc;
		this.json = json;
	}

	/**
	 * The claim: inserts an IN_PROGRESS record unless the key has one, its lease ending
	 * {@code lease} after the database's {@code statement_timestamp()}; true if inserted.
	 */
	boolean insertClaim(String operation, ClaimRequest request, UUID resourceId, Instant now, Duration lease) {
		return this.jdbc
			.sql("""
					INSERT INTO idempotency_records
					    (scope, idempotency_key, operation, request_fingerprint, status, locked_until, attempt, resource_id, created_at)
					VALUES (:scope, :key, :operation, :fingerprint, 'IN_PROGRESS',
					        statement_timestamp() + :lease * INTERVAL '1 microsecond', 1, :resourceId, :now)
					ON CONFLICT (scope, idempotency_key) DO NOTHING
					""")
			.param("scope", request.scope().value())
			.param("operation", operation)
			.param("key", request.key().value())
			.param("fingerprint", request.fingerprint().sha256Hex())
			.param("lease", micros(lease))
			.param("resourceId", resourceId)
			.param("now", utc(now))
			.update() == 1;
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

	Optional<IdempotencyRecord> find(ClaimRequest request) {
		return this.jdbc.sql("""
				SELECT operation, request_fingerprint, status, attempt, resource_id,
				       response_status, response_headers, response_body,
				       CAST(EXTRACT(EPOCH FROM locked_until - statement_timestamp()) * 1000000 AS bigint) AS lease_left,
				       CAST(EXTRACT(EPOCH FROM expires_at - statement_timestamp()) * 1000000 AS bigint) AS expires_in
				FROM idempotency_records
				WHERE scope = :scope AND idempotency_key = :key
				""")
			.param("scope", request.scope().value())
			.param("key", request.key().value())
			.query((rs, row) -> record(rs, ""))
			.optional();
	}

	/**
	 * A record as read by {@link #find}, its columns named with {@code prefix} (the claim
	 * in one statement reads the same columns).
	 */
	IdempotencyRecord record(ResultSet rs, String prefix) throws SQLException {
		return new IdempotencyRecord(rs.getString(prefix + "operation"),
				new RequestFingerprint(rs.getString(prefix + "request_fingerprint")), rs.getString(prefix + "status"),
				duration(rs.getObject(prefix + "lease_left", Long.class)), rs.getInt(prefix + "attempt"),
				rs.getObject(prefix + "resource_id", UUID.class),
				storedResponse(rs.getInt(prefix + "response_status"), rs.getString(prefix + "response_headers"),
						rs.getString(prefix + "response_body")),
				duration(rs.getObject(prefix + "expires_in", Long.class)));
	}

	/** A stored response's headers as the {@code jsonb} the record keeps. */
	String headers(StoredResponse response) {
		return this.json.writeValueAsString(response.headers());
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
				WHERE scope = :scope AND idempotency_key = :key
				  AND status = 'IN_PROGRESS' AND attempt = :attempt AND locked_until <= statement_timestamp()
				""")
			.param("scope", request.scope().value())
			.param("key", request.key().value())
			.param("attempt", expiredAttempt)
			.param("lease", micros(lease))
			.update() == 1;
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
				    SELECT scope, idempotency_key FROM idempotency_records
				    WHERE status = 'IN_PROGRESS' AND operation = :operation
				      AND locked_until <= statement_timestamp() - :staleAfter * INTERVAL '1 microsecond'
				    ORDER BY locked_until
				    LIMIT :limit
				    FOR UPDATE SKIP LOCKED)
				UPDATE idempotency_records r
				SET attempt = r.attempt + 1, locked_until = statement_timestamp() + :lease * INTERVAL '1 microsecond'
				FROM stale
				WHERE r.scope = stale.scope AND r.idempotency_key = stale.idempotency_key
				RETURNING r.scope, r.operation, r.idempotency_key, r.resource_id, r.attempt
				""")
			.param("operation", operation)
			.param("staleAfter", micros(staleAfter))
			.param("lease", micros(lease))
			.param("limit", limit)
			.query((rs, row) -> new Lease(new IdempotencyScope(rs.getString("scope")), rs.getString("operation"),
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
				WHERE resource_id = :resourceId AND scope = :scope AND operation = :operation
				  AND status = 'IN_PROGRESS' AND locked_until <= statement_timestamp()
				RETURNING scope, operation, idempotency_key, resource_id, attempt
				""")
			.param("lease", micros(lease))
			.param("resourceId", resourceId)
			.param("scope", scope.value())
			.param("operation", operation)
			.query((rs, row) -> new Lease(new IdempotencyScope(rs.getString("scope")), rs.getString("operation"),
					new IdempotencyKey(rs.getString("idempotency_key")), rs.getObject("resource_id", UUID.class),
					rs.getInt("attempt"), lockedUntil))
			.optional();
	}

	/**
	 * Deletes the key's record if it is COMPLETED and past its expiry by the database's
	 * clock; true if deleted.
	 */
	boolean deleteIfExpired(ClaimRequest request) {
		return this.jdbc.sql("""
				DELETE FROM idempotency_records
				WHERE scope = :scope AND idempotency_key = :key
				  AND status = 'COMPLETED' AND expires_at <= statement_timestamp()
				""").param("scope", request.scope().value()).param("key", request.key().value()).update() == 1;
	}

	/**
	 * Locks the record for completion if this lease's attempt still holds it; true if so.
	 * The row lock lasts until the caller's transaction ends, so no takeover can slip in
	 * between this check and {@link #complete}.
	 */
	boolean lockIfHeld(Lease lease) {
		return this.jdbc.sql("""
				SELECT 1 FROM idempotency_records
				WHERE scope = :scope AND idempotency_key = :key
				  AND %s
				FOR UPDATE
				""".formatted(completionFence(":attempt")))
			.param("scope", lease.scope().value())
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
				WHERE scope = :scope AND idempotency_key = :key
				  AND %s
				""".formatted(completionFence(":attempt")))
			.param("status", response.status())
			.param("headers", this.json.writeValueAsString(response.headers()))
			.param("body", response.body())
			.param("now", utc(now))
			.param("retention", micros(retention))
			.param("scope", lease.scope().value())
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
	String completionFence(String attempt) {
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

	/**
	 * Whether completions are fenced: always, but after
	 * {@link #switchOffCompletionFence}.
	 */
	boolean completionFenced() {
		return this.completionFenced;
	}

	/** What a completion in one statement ({@link PreparedResource#complete}) did. */
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
	 * Fenced release: ends the lease now, by the database's clock, so the next request
	 * may take over at once.
	 */
	boolean release(Lease lease) {
		return this.jdbc.sql("""
				UPDATE idempotency_records
				SET locked_until = statement_timestamp()
				WHERE scope = :scope AND idempotency_key = :key
				  AND status = 'IN_PROGRESS' AND attempt = :attempt
				""")
			.param("scope", lease.scope().value())
			.param("key", lease.key().value())
			.param("attempt", lease.attempt())
			.update() == 1;
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
	static long micros(Duration duration) {
		return duration.toNanos() / 1000;
	}

	static @Nullable Duration duration(@Nullable Long micros) {
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
