package dev.payonce.idempotency;

import java.time.Duration;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code idempotency_records} table as a whole, for retention and the limits on it:
 * what has expired and its deletion (docs/design.md section 4, step 6), how many records
 * a scope holds live ({@link RecordQuota}), and how many leases have ended
 * ({@link IdempotencyService}'s gauges). One key's record, its claim, takeover, fenced
 * completion and release are {@link IdempotencyRecords}'. Every method runs in the
 * caller's transaction, and every time is the database's clock
 * ({@code statement_timestamp()}, docs/design.md section 4, "One clock for leases").
 */
@Repository
class RecordRetention {

	private final JdbcClient jdbc;

	RecordRetention(JdbcClient jdbc) {
		this.jdbc = jdbc;
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
				    SELECT scope, idempotency_key FROM idempotency_records
				    WHERE status = 'COMPLETED' AND expires_at <= statement_timestamp()
				    ORDER BY expires_at
				    LIMIT :limit
				    FOR UPDATE SKIP LOCKED)
				DELETE FROM idempotency_records r
				USING expired
				WHERE r.scope = expired.scope AND r.idempotency_key = expired.idempotency_key
				  AND r.status = 'COMPLETED'
				""").param("limit", limit).update();
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
	 * Counts the scope's live records (in progress, or completed and not expired by the
	 * database's clock), but stops at {@code limit}: the cost is bounded by the cap, not
	 * by the scope's size.
	 */
	long countLive(String scope, long limit) {
		return this.jdbc.sql("""
				SELECT count(*) FROM (
				    SELECT 1 FROM idempotency_records
				    WHERE scope = :scope AND (status = 'IN_PROGRESS' OR expires_at > statement_timestamp())
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
				WHERE scope = :scope AND status = 'COMPLETED' AND expires_at > statement_timestamp()
				""")
			.param("scope", scope)
			.query((rs, row) -> IdempotencyRecords.duration(rs.getObject(1, Long.class)))
			.optional()
			.flatMap(Optional::ofNullable);
	}

	/** Whether the key has a record, in whatever state. */
	boolean exists(String scope, IdempotencyKey key) {
		return this.jdbc.sql("""
				SELECT EXISTS (SELECT 1 FROM idempotency_records WHERE scope = :scope AND idempotency_key = :key)
				""").param("scope", scope).param("key", key.value()).query(Boolean.class).single();
	}

}
