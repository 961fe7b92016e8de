package dev.payonce.event;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Service;

/**
 * A client's webhook endpoints (docs/events.md, "Endpoints"): registration checks the URL
 * and every address its host resolves to now ({@link EndpointAddresses}; the delivery
 * checks again), and the event types against {@link #TYPES}. Thread-safe.
 */
@Service
public class WebhookEndpointRegistry {

	/** Every event type an endpoint may ask for; {@code *} asks for all. */
	public static final Set<String> TYPES = Set.of("payment.succeeded", "payment.authorized", "payment.declined",
			"payment.failed", "payment.voided", "refund.succeeded", "refund.declined", "refund.failed",
			"capture.succeeded", "capture.declined", "capture.failed", "void.succeeded", "void.declined",
			"void.failed");

	/** The most endpoints one client may register. */
	public static final int MAX_ENDPOINTS = 16;

	private final WebhookEndpoints endpoints;

	private final EndpointAddresses addresses;

	private final EventProperties properties;

	WebhookEndpointRegistry(WebhookEndpoints endpoints, EndpointAddresses addresses, EventProperties properties) {
		this.endpoints = endpoints;
		this.addresses = addresses;
		this.properties = properties;
	}

	/**
	 * Registers an endpoint with a new signing secret.
	 * @param clientId the client
	 * @param url an absolute {@code http} or {@code https} URL without user info or
	 * fragment, at most 2048 characters
	 * @param eventTypes the types it receives, from {@link #TYPES}, or {@code *}
	 * @return the endpoint, with its secret
	 * @throws Invalid if the URL, its addresses or the types are refused; nothing is
	 * stored
	 */
	public WebhookEndpoint register(String clientId, String url, List<String> eventTypes) {
		List<Invalid.Error> errors = new ArrayList<>();
		URI checked = checkUrl(url, errors);
		Set<String> types = new LinkedHashSet<>();
		if (eventTypes.isEmpty()) {
			errors.add(new Invalid.Error("eventTypes", "must name at least one type, or *"));
		}
		for (String type : eventTypes) {
			if (!type.equals("*") && !TYPES.contains(type)) {
				errors.add(new Invalid.Error("eventTypes", "unknown event type"));
				break;
			}
			types.add(type);
		}
		if (!errors.isEmpty()) {
			throw new Invalid(errors, null);
		}
		if (checked == null) {
			throw new IllegalStateException("A URL without errors was checked");
		}
		try {
			this.addresses.check(checked.getHost());
		}
		catch (EndpointAddresses.Refused ex) {
			throw new Invalid(List.of(new Invalid.Error("url", "its host resolves to a refused address")), ex.reason());
		}
		if (this.endpoints.of(clientId).size() >= MAX_ENDPOINTS) {
			throw new Invalid(List.of(new Invalid.Error("url", "at most " + MAX_ENDPOINTS + " endpoints per client")),
					null);
		}
		return this.endpoints.create(clientId, checked.toString(), List.copyOf(types), Signatures.newSecret());
	}

	/**
	 * The client's endpoints, oldest first.
	 * @param clientId the client
	 * @return its endpoints
	 */
	public List<WebhookEndpoint> list(String clientId) {
		return this.endpoints.of(clientId);
	}

	/**
	 * One endpoint of the client.
	 * @param clientId the client
	 * @param id the endpoint
	 * @return it; empty if the client has none with this id
	 */
	public Optional<WebhookEndpoint> find(String clientId, UUID id) {
		return this.endpoints.find(clientId, id);
	}

	/**
	 * A new signing secret; the previous one keeps signing (both signatures in every
	 * delivery) for {@code payonce.events.rotation-overlap}.
	 * @param clientId the client
	 * @param id the endpoint
	 * @return the endpoint with its new secret; empty if the client has none with this id
	 */
	public Optional<WebhookEndpoint> rotateSecret(String clientId, UUID id) {
		return this.endpoints.rotate(clientId, id, Signatures.newSecret(), this.properties.rotationOverlap());
	}

	/**
	 * Enables or disables an endpoint; a disabled one receives nothing and its pending
	 * deliveries are dropped.
	 * @param clientId the client
	 * @param id the endpoint
	 * @param enabled the new state
	 * @return the endpoint; empty if the client has none with this id
	 */
	public Optional<WebhookEndpoint> setEnabled(String clientId, UUID id, boolean enabled) {
		return this.endpoints.setEnabled(clientId, id, enabled);
	}

	/**
	 * Deletes an endpoint with its deliveries.
	 * @param clientId the client
	 * @param id the endpoint
	 * @return whether it existed
	 */
	public boolean delete(String clientId, UUID id) {
		return this.endpoints.delete(clientId, id);
	}

	/**
	 * Every client's endpoints disabled for failing, newest first, for the admin view.
	 * @return at most 200 endpoints
	 */
	public List<WebhookEndpoint> disabledForFailing() {
		return this.endpoints.disabledForFailing();
	}

	private static URI checkUrl(String url, List<Invalid.Error> errors) {
		if (url.length() > 2048) {
			errors.add(new Invalid.Error("url", "at most 2048 characters"));
			return null;
		}
		try {
			URI uri = new URI(url);
			String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : "";
			if (!uri.isAbsolute() || !(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null
					|| uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
				errors.add(new Invalid.Error("url",
						"must be an absolute http or https URL with a host, without user info or fragment"));
				return null;
			}
			return uri;
		}
		catch (URISyntaxException ex) {
			errors.add(new Invalid.Error("url", "is not a URL"));
			return null;
		}
	}

	/** A registration refused; nothing was stored. */
	public static final class Invalid extends RuntimeException {

		private final List<Error> errors;

		private final String refusedAddress;

		Invalid(List<Error> errors, String refusedAddress) {
			super("Webhook endpoint refused", null, false, false);
			this.errors = List.copyOf(errors);
			this.refusedAddress = refusedAddress;
		}

		/**
		 * What is wrong, by field.
		 * @return at least one error
		 */
		public List<Error> errors() {
			return this.errors;
		}

		/**
		 * The kind of address the URL's host resolved to, if that was the refusal.
		 * @return {@code loopback}, {@code private}, {@code link_local}, {@code reserved}
		 * or {@code unresolvable}; {@code null} otherwise
		 */
		public String refusedAddress() {
			return this.refusedAddress;
		}

		/**
		 * One error.
		 *
		 * @param field the request member
		 * @param message what is wrong
		 */
		public record Error(String field, String message) {
		}

	}

}
