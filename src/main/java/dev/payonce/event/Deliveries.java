package dev.payonce.event;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The dispatcher's statements (docs/events.md, "Delivery"). Every instance may run them
 * at once: events are fanned out and deliveries claimed with
 * {@code FOR UPDATE SKIP LOCKED}, so each is taken by one instance, and a claim is a
 * lease (its next attempt moved past the attempt's worst case), so a delivery whose
 * instance died is due again after it. Times are the database's.
 */
@Repository
class Deliveries {

	private final JdbcClient jdbc;

	Deliveries(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Writes one delivery per enabled endpoint of the event's client that wants its type,
	 * for up to {@code limit} events not yet fanned out, oldest first.
	 * @return how many events were fanned out
	 */
	int fanOut(int limit) {
		return this.jdbc.sql("""
				WITH picked AS (SELECT id, client_id, type FROM merchant_events WHERE NOT fanned_out
				    ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED),
				written AS (INSERT INTO event_deliveries (id, event_id, endpoint_id, status, next_attempt_at)
				    SELECT gen_random_uuid(), p.id, e.id, 'PENDING', statement_timestamp()
				    FROM picked p JOIN webhook_endpoints e ON e.client_id = p.client_id AND e.status = 'ENABLED'
				      AND (p.type = ANY (e.event_types) OR '*' = ANY (e.event_types))
				    ON CONFLICT (event_id, endpoint_id) DO NOTHING RETURNING 1)
				UPDATE merchant_events SET fanned_out = true WHERE id IN (SELECT id FROM picked)
				""").param(limit).update();
	}

	/**
	 * Claims up to {@code limit} due deliveries for {@code claimFor}, counting the
	 * attempt.
	 */
	List<Claimed> claim(int limit, Duration claimFor) {
		return this.jdbc
			.sql("""
					UPDATE event_deliveries d
					SET next_attempt_at = statement_timestamp() + ? * INTERVAL '1 millisecond', attempts = d.attempts + 1
					FROM (SELECT id FROM event_deliveries WHERE status = 'PENDING' AND next_attempt_at <= statement_timestamp()
					      ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED) due,
					     merchant_events ev
					WHERE d.id = due.id AND ev.id = d.event_id
					RETURNING d.id, d.endpoint_id, d.attempts, ev.id AS event_id, ev.type, ev.payload,
					          ev.created_at, CAST(EXTRACT(EPOCH FROM statement_timestamp()) AS bigint) AS now_seconds,
					          CAST(EXTRACT(EPOCH FROM statement_timestamp() - ev.created_at) * 1000 AS bigint) AS age_millis
					""")
			.params(claimFor.toMillis(), limit)
			.query((rs, row) -> new Claimed(rs.getObject("id", UUID.class), rs.getObject("endpoint_id", UUID.class),
					rs.getInt("attempts"), rs.getObject("event_id", UUID.class), rs.getString("type"),
					rs.getString("payload"), rs.getTimestamp("created_at").toInstant().toString(),
					rs.getLong("now_seconds"), Duration.ofMillis(rs.getLong("age_millis"))))
			.list();
	}

	/** Records one attempt. */
	void recordAttempt(UUID delivery, WebhookSender.Attempt attempt) {
		this.jdbc.sql(
				"INSERT INTO event_delivery_attempts (delivery_id, http_status, latency_ms, error_kind) VALUES (?, ?, ?, ?)")
			.params(delivery, attempt.status(), attempt.latencyMillis(), attempt.errorKind())
			.update();
	}

	/**
	 * Delivered: fenced by the attempt number, so a dispatcher whose claim ran out and
	 * was taken over changes nothing of the newer attempt's.
	 */
	boolean delivered(UUID delivery, int attempt, UUID endpoint) {
		boolean moved = this.jdbc.sql("""
				UPDATE event_deliveries SET status = 'DELIVERED', delivered_at = statement_timestamp()
				WHERE id = ? AND attempts = ? AND status = 'PENDING'""").params(delivery, attempt).update() == 1;
		this.jdbc.sql("UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL")
			.param(endpoint)
			.update();
		return moved;
	}

	/** Failed: due again after {@code retryIn}, or given up ({@code retryIn} null). */
	void failed(UUID delivery, int attempt, @Nullable Duration retryIn) {
		if (retryIn == null) {
			this.jdbc.sql(
					"UPDATE event_deliveries SET status = 'FAILED' WHERE id = ? AND attempts = ? AND status = 'PENDING'")
				.params(delivery, attempt)
				.update();
			return;
		}
		this.jdbc.sql("""
				UPDATE event_deliveries SET next_attempt_at = statement_timestamp() + ? * INTERVAL '1 millisecond'
				WHERE id = ? AND attempts = ? AND status = 'PENDING'""")
			.params(retryIn.toMillis(), delivery, attempt)
			.update();
	}

	/** A delivery to an endpoint that is disabled or gone: parked as failed. */
	void parked(UUID delivery) {
		this.jdbc.sql("UPDATE event_deliveries SET status = 'FAILED' WHERE id = ? AND status = 'PENDING'")
			.param(delivery)
			.update();
	}

	/**
	 * Notes the endpoint's failure and disables it if it has failed every attempt for
	 * {@code disableAfter}.
	 * @return whether this call disabled it
	 */
	boolean endpointFailed(UUID endpoint, Duration disableAfter) {
		this.jdbc.sql("""
				UPDATE webhook_endpoints SET failing_since = statement_timestamp()
				WHERE id = ? AND failing_since IS NULL""").param(endpoint).update();
		return this.jdbc.sql("""
				UPDATE webhook_endpoints SET status = 'DISABLED', disabled_reason = 'failing',
				    updated_at = statement_timestamp()
				WHERE id = ? AND status = 'ENABLED'
				  AND failing_since <= statement_timestamp() - ? * INTERVAL '1 millisecond'""")
			.params(endpoint, disableAfter.toMillis())
			.update() == 1;
	}

	/**
	 * Asks for one event to be delivered again to every enabled endpoint of its client
	 * that wants it, now.
	 * @return how many deliveries are due; empty if the client has no such event
	 */
	Optional<Integer> redeliver(String clientId, UUID event) {
		boolean exists = this.jdbc.sql("SELECT count(*) FROM merchant_events WHERE id = ? AND client_id = ?")
			.params(event, clientId)
			.query(Long.class)
			.single() == 1;
		if (!exists) {
			return Optional.empty();
		}
		return Optional.of(this.jdbc.sql("""
				INSERT INTO event_deliveries (id, event_id, endpoint_id, status, next_attempt_at)
				SELECT gen_random_uuid(), ev.id, e.id, 'PENDING', statement_timestamp()
				FROM merchant_events ev JOIN webhook_endpoints e ON e.client_id = ev.client_id AND e.status = 'ENABLED'
				  AND (ev.type = ANY (e.event_types) OR '*' = ANY (e.event_types))
				WHERE ev.id = ? AND ev.client_id = ?
				ON CONFLICT (event_id, endpoint_id)
				DO UPDATE SET status = 'PENDING', next_attempt_at = statement_timestamp()""")
			.params(event, clientId)
			.update());
	}

	/** The age of the oldest event not yet delivered to some endpoint, for the gauge. */
	Duration oldestUndelivered() {
		long millis = this.jdbc
			.sql("""
					SELECT COALESCE(CAST(EXTRACT(EPOCH FROM statement_timestamp() - min(ev.created_at)) * 1000 AS bigint), 0)
					FROM merchant_events ev
					WHERE NOT ev.fanned_out
					   OR EXISTS (SELECT 1 FROM event_deliveries d WHERE d.event_id = ev.id AND d.status = 'PENDING')""")
			.query(Long.class)
			.single();
		return Duration.ofMillis(millis);
	}

	/**
	 * Deletes events older than {@code retention}, with their deliveries and attempts.
	 */
	int deleteOlderThan(Duration retention, int limit) {
		return this.jdbc.sql("""
				DELETE FROM merchant_events WHERE id IN (SELECT id FROM merchant_events
				    WHERE created_at < statement_timestamp() - ? * INTERVAL '1 millisecond'
				    ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED)""")
			.params(retention.toMillis(), limit)
			.update();
	}

	/**
	 * A claimed delivery with its event.
	 *
	 * @param id the delivery
	 * @param endpoint its endpoint
	 * @param attempt this attempt's number, from 1
	 * @param event the event's id
	 * @param type the event's type
	 * @param payload the event's receipt JSON
	 * @param createdAt the event's creation time, ISO-8601 UTC
	 * @param nowSeconds the database's time of the claim, seconds since the epoch
	 * @param age how old the event was at the claim
	 */
	record Claimed(UUID id, UUID endpoint, int attempt, UUID event, String type, String payload, String createdAt,
			long nowSeconds, Duration age) {
	}

}
