package dev.payonce.event;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * A client's webhook endpoint as stored (docs/events.md, "Endpoints").
 *
 * @param id the endpoint's id
 * @param clientId the owning client
 * @param url the URL events are POSTed to
 * @param eventTypes the event types it receives; {@code *} for all
 * @param secret the current signing secret ({@code whsec_...})
 * @param previousSecret the secret before the last rotation, while it still signs;
 * {@code null} otherwise
 * @param status {@code ENABLED} or {@code DISABLED}
 * @param disabledReason {@code client} or {@code failing}; {@code null} while enabled
 * @param failingSince the first failed attempt since the last delivered one
 * @param createdAt when it was registered
 */
public record WebhookEndpoint(UUID id, String clientId, String url, List<String> eventTypes, String secret,
		@Nullable String previousSecret, String status, @Nullable String disabledReason, @Nullable Instant failingSince,
		Instant createdAt) {

	/**
	 * The secrets that sign a delivery now: the current one, and the previous one during
	 * a rotation's overlap.
	 * @return one or two secrets, the current first
	 */
	public List<String> signingSecrets() {
		return (this.previousSecret != null) ? List.of(this.secret, this.previousSecret) : List.of(this.secret);
	}

	/**
	 * Whether the endpoint wants events of this type.
	 * @param type an event type
	 * @return whether it subscribed to it or to every type
	 */
	public boolean wants(String type) {
		return this.eventTypes.contains("*") || this.eventTypes.contains(type);
	}

}
