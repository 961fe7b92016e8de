package dev.payonce.event;

import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A merchant event about to be written to the outbox (docs/events.md, "Events").
 *
 * @param clientId the client the resource belongs to
 * @param type {@code <resource>.<status>} in lower case, for example
 * {@code payment.succeeded}
 * @param resourceId the resource's id
 * @param payload the resource's receipt as JSON, as it was when the change committed
 */
public record NewEvent(String clientId, String type, UUID resourceId, String payload) {

	private static final Pattern TYPE = Pattern.compile("[a-z_]+\\.[a-z_]+");

	/**
	 * @throws IllegalArgumentException if the type is not {@code <resource>.<status>} in
	 * lower case
	 */
	public NewEvent {
		if (!TYPE.matcher(type).matches()) {
			throw new IllegalArgumentException("An event type is <resource>.<status> in lower case, not " + type);
		}
	}

	/**
	 * The event of a resource that moved to {@code status}.
	 * @param clientId the owning client
	 * @param resource the resource's kind ({@code payment}, {@code refund},
	 * {@code capture}, {@code void})
	 * @param status its new status ({@code SUCCEEDED})
	 * @param resourceId the resource's id
	 * @param payload the resource's receipt as JSON
	 * @return the event, typed {@code payment.succeeded}
	 */
	public static NewEvent of(String clientId, String resource, Enum<?> status, UUID resourceId, String payload) {
		return new NewEvent(clientId, resource + "." + status.name().toLowerCase(Locale.ROOT), resourceId, payload);
	}

}
