package dev.payonce.webhook;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.payonce.provider.ProviderEvent;

/**
 * The ledger of webhook events: one row per (provider, event id) that settled
 * ({@code APPLIED}) or was ignored against a payment or refund Payonce knows of
 * ({@code IGNORED}), in {@code provider_webhook_events} (docs/design.md, "Webhooks"). The
 * dedupe of deliveries is the engine's; this ledger is the lasting record of each event's
 * effect, kept after the engine's record expired.
 */
@Repository
class WebhookEvents {

	private final JdbcClient jdbc;

	WebhookEvents(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Records the event once: {@code ON CONFLICT DO NOTHING} on the primary key, so a
	 * concurrent delivery of the same event never raises (and never aborts the caller's
	 * transaction); false if it was recorded before.
	 */
	boolean record(ProviderEvent event, @Nullable UUID paymentId, @Nullable UUID refundId, String effect, Instant now) {
		return this.jdbc
			.sql("""
					INSERT INTO provider_webhook_events (provider, event_id, event_type, payment_id, refund_id, effect, received_at)
					VALUES (:provider, :eventId, :eventType, :paymentId, :refundId, :effect, :now)
					ON CONFLICT (provider, event_id) DO NOTHING
					""")
			.param("provider", event.provider())
			.param("eventId", event.eventId())
			.param("eventType", event.eventType())
			.param("paymentId", paymentId)
			.param("refundId", refundId)
			.param("effect", effect)
			.param("now", now.atOffset(ZoneOffset.UTC))
			.update() == 1;
	}

}
