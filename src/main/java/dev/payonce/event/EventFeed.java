package dev.payonce.event;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * A client's events, newest first, as {@code GET /events} reads them (docs/events.md,
 * "The feed"): filtered by type and by "not yet delivered" (some delivery to an endpoint
 * is pending or failed, or the event has not been fanned out), paged by a cursor (the
 * last event's id). Redelivery asks for one event to be sent again. Thread-safe.
 */
@Service
public class EventFeed {

	private final JdbcClient jdbc;

	private final Deliveries deliveries;

	EventFeed(JdbcClient jdbc, Deliveries deliveries) {
		this.jdbc = jdbc;
		this.deliveries = deliveries;
	}

	/**
	 * One page of the client's events, newest first.
	 * @param clientId the client
	 * @param type only events of this type; {@code null} for all
	 * @param undelivered only events not yet delivered to every endpoint that wants them
	 * @param startingAfter the id of the last event of the previous page; {@code null}
	 * for the first page
	 * @param limit the most events, 1 to 100
	 * @return the page; empty if {@code startingAfter} names no event of the client
	 */
	public Optional<Page> page(String clientId, @Nullable String type, boolean undelivered,
			@Nullable UUID startingAfter, int limit) {
		Long after = null;
		if (startingAfter != null) {
			Optional<Long> seq = this.jdbc.sql("SELECT seq FROM merchant_events WHERE id = ? AND client_id = ?")
				.params(startingAfter, clientId)
				.query(Long.class)
				.optional();
			if (seq.isEmpty()) {
				return Optional.empty();
			}
			after = seq.get();
		}
		List<Event> events = this.jdbc.sql("""
				SELECT ev.id, ev.type, ev.created_at, ev.payload,
				       (NOT ev.fanned_out OR EXISTS (SELECT 1 FROM event_deliveries d
				            WHERE d.event_id = ev.id AND d.status <> 'DELIVERED')) AS undelivered
				FROM merchant_events ev
				WHERE ev.client_id = :client AND (CAST(:type AS varchar) IS NULL OR ev.type = :type)
				  AND (CAST(:after AS bigint) IS NULL OR ev.seq < :after)
				  AND (NOT :undelivered OR NOT ev.fanned_out OR EXISTS (SELECT 1 FROM event_deliveries d
				            WHERE d.event_id = ev.id AND d.status <> 'DELIVERED'))
				ORDER BY ev.seq DESC LIMIT :limit""")
			.param("client", clientId)
			.param("type", type)
			.param("after", after)
			.param("undelivered", undelivered)
			.param("limit", limit + 1)
			.query((rs, row) -> new Event(rs.getObject("id", UUID.class), rs.getString("type"),
					rs.getTimestamp("created_at").toInstant(), rs.getString("payload"), !rs.getBoolean("undelivered")))
			.list();
		boolean more = events.size() > limit;
		return Optional.of(new Page(more ? events.subList(0, limit) : events, more));
	}

	/**
	 * One event of the client.
	 * @param clientId the client
	 * @param id the event
	 * @return it; empty if the client has none with this id
	 */
	public Optional<Event> find(String clientId, UUID id) {
		return this.jdbc.sql("""
				SELECT ev.id, ev.type, ev.created_at, ev.payload,
				       (NOT ev.fanned_out OR EXISTS (SELECT 1 FROM event_deliveries d
				            WHERE d.event_id = ev.id AND d.status <> 'DELIVERED')) AS undelivered
				FROM merchant_events ev WHERE ev.id = ? AND ev.client_id = ?""")
			.params(id, clientId)
			.query((rs, row) -> new Event(rs.getObject("id", UUID.class), rs.getString("type"),
					rs.getTimestamp("created_at").toInstant(), rs.getString("payload"), !rs.getBoolean("undelivered")))
			.optional();
	}

	/**
	 * Sends one event again to every enabled endpoint of the client that wants it, at the
	 * next dispatcher run, with the same {@code webhook-id}.
	 * @param clientId the client
	 * @param id the event
	 * @return how many deliveries were scheduled; empty if the client has no such event
	 */
	public Optional<Integer> redeliver(String clientId, UUID id) {
		return this.deliveries.redeliver(clientId, id);
	}

	/**
	 * An event as the feed shows it.
	 *
	 * @param id the event's id, also the {@code webhook-id} of its deliveries
	 * @param type {@code <resource>.<status>}
	 * @param createdAt when the change committed
	 * @param payload the resource's receipt JSON at that moment
	 * @param delivered whether every endpoint that wanted it received it
	 */
	public record Event(UUID id, String type, Instant createdAt, String payload, boolean delivered) {
	}

	/**
	 * One page of events.
	 *
	 * @param events newest first
	 * @param hasMore whether older events follow
	 */
	public record Page(List<Event> events, boolean hasMore) {
	}

}
