package dev.payonce.payment;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The webhook events Payonce has applied or ignored, one row per (provider, event id), in
 * {@code provider_webhook_events}.
 */
@Repository
class WebhookEvents {

	private final JdbcClient jdbc;

	WebhookEvents(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	boolean exists(String provider, String eventId) {
		return this.jdbc.sql("SELECT 1 FROM provider_webhook_events WHERE provider = :provider AND event_id = :eventId")
			.param("provider", provider)
			.param("eventId", eventId)
			.query(Integer.class)
			.optional()
			.isPresent();
	}

	/**
	 * Records the event once: {@code ON CONFLICT DO NOTHING} on the primary key, so a
	 * concurrent delivery of the same event never raises (and never aborts the caller's
	 * transaction); false if it was recorded before.
	 */
	boolean record(WebhookEvent event, @Nullable UUID paymentId, String effect, Instant now) {
		return this.jdbc.sql("""
				INSERT INTO provider_webhook_events (provider, event_id, event_type, payment_id, effect, received_at)
				VALUES (:provider, :eventId, :eventType, :paymentId, :effect, :now)
				ON CONFLICT (provider, event_id) DO NOTHING
				""")
			.param("provider", event.provider())
			.param("eventId", event.eventId())
			.param("eventType", event.eventType())
			.param("paymentId", paymentId)
			.param("effect", effect)
			.param("now", now.atOffset(ZoneOffset.UTC))
			.update() == 1;
	}

}
