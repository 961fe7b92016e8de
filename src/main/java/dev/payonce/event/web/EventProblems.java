package dev.payonce.event.web;

import java.util.List;
import java.util.Map;

import org.springframework.http.HttpStatus;

import dev.payonce.event.WebhookEndpointRegistry;
import dev.payonce.web.ApiProblem;

/**
 * The problems of the events API (docs/api.md, "Problem types"), each with its stable
 * type slug.
 */
final class EventProblems {

	private EventProblems() {
	}

	/**
	 * {@code 404 webhook-endpoint-not-found}: the client has no endpoint with this id.
	 */
	static ApiProblem endpointNotFound() {
		return new ApiProblem(HttpStatus.NOT_FOUND, "webhook-endpoint-not-found", "Webhook endpoint not found",
				"The calling client has no webhook endpoint with this id.");
	}

	/** {@code 404 event-not-found}: the client has no event with this id. */
	static ApiProblem eventNotFound() {
		return new ApiProblem(HttpStatus.NOT_FOUND, "event-not-found", "Event not found",
				"The calling client has no event with this id (events are kept for a limited time).");
	}

	/**
	 * {@code 400 invalid-request} listing what is wrong, by member or query parameter.
	 * @param errors the errors
	 * @return the problem
	 */
	static ApiProblem invalid(List<WebhookEndpointRegistry.Invalid.Error> errors) {
		return new ApiProblem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
				"The request breaks the events contract; see errors.")
			.with("errors",
					errors.stream()
						.map((error) -> Map.of("field", error.field(), "message", error.message()))
						.toList());
	}

	/**
	 * {@code 400 webhook-url-refused}: the URL's host resolves to an address webhooks are
	 * never sent to (docs/events.md, "Addresses"); nothing was stored.
	 * @param addressKind {@code loopback}, {@code private}, {@code link_local},
	 * {@code reserved} or {@code unresolvable}
	 * @return the problem, with {@code addressKind}
	 */
	static ApiProblem urlRefused(String addressKind) {
		return new ApiProblem(HttpStatus.BAD_REQUEST, "webhook-url-refused", "Webhook URL refused",
				"The URL's host does not resolve, or resolves to an address webhooks are never sent to "
						+ "(loopback, private, link-local, metadata or reserved). Nothing was stored.")
			.with("addressKind", addressKind);
	}

}
