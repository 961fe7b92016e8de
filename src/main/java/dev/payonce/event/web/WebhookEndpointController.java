package dev.payonce.event.web;

import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.payonce.client.CurrentClient;
import dev.payonce.event.WebhookEndpoint;
import dev.payonce.event.WebhookEndpointRegistry;
import dev.payonce.web.ApiDocumentation;
import dev.payonce.web.CanonicalIds;

/**
 * A client's webhook endpoints (docs/events.md, "Endpoints"): part of the client API,
 * authenticated by the client's API key like {@code /payments}, because an endpoint and
 * its secret belong to the client that receives the events, and a merchant manages them
 * without an operator.
 */
@RestController
@RequestMapping(path = "/webhook-endpoints",
		produces = { MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_PROBLEM_JSON_VALUE })
@Tag(name = "Webhook endpoints", description = "Where the calling client's events are POSTed, signed")
@SecurityRequirement(name = ApiDocumentation.API_KEY)
class WebhookEndpointController {

	private final WebhookEndpointRegistry registry;

	private final CurrentClient currentClient;

	WebhookEndpointController(WebhookEndpointRegistry registry, CurrentClient currentClient) {
		this.registry = registry;
		this.currentClient = currentClient;
	}

	@Operation(operationId = "createWebhookEndpoint", summary = "Register a webhook endpoint",
			description = "Checks the URL and every address its host resolves to (public addresses only), "
					+ "and answers the endpoint with its signing secret, shown only here and on rotation.",
			responses = {
					@ApiResponse(responseCode = "201", description = "Registered, with its secret",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = WebhookEndpointView.class))),
					@ApiResponse(responseCode = "400",
							description = "invalid-request, or webhook-url-refused: nothing stored",
							content = @Content(mediaType = "application/problem+json",
									schema = @Schema(ref = ApiDocumentation.PROBLEM))) })
	@PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<WebhookEndpointView> create(@RequestBody WebhookEndpointRequest request) {
		String url = request.url();
		List<String> types = request.eventTypes();
		if (url == null || types == null) {
			throw EventProblems.invalid(List
				.of(new WebhookEndpointRegistry.Invalid.Error((url == null) ? "url" : "eventTypes", "is required")));
		}
		try {
			WebhookEndpoint created = this.registry.register(client(), url, types);
			return ResponseEntity.status(HttpStatus.CREATED)
				.header("Location", "/webhook-endpoints/" + created.id())
				.body(WebhookEndpointView.of(created, true));
		}
		catch (WebhookEndpointRegistry.Invalid ex) {
			String refused = ex.refusedAddress();
			throw (refused != null) ? EventProblems.urlRefused(refused) : EventProblems.invalid(ex.errors());
		}
	}

	@Operation(operationId = "listWebhookEndpoints", summary = "The calling client's webhook endpoints",
			responses = @ApiResponse(responseCode = "200", description = "Oldest first, without secrets",
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							array = @io.swagger.v3.oas.annotations.media.ArraySchema(
									schema = @Schema(implementation = WebhookEndpointView.class)))))
	@GetMapping
	List<WebhookEndpointView> list() {
		return this.registry.list(client())
			.stream()
			.map((endpoint) -> WebhookEndpointView.of(endpoint, false))
			.toList();
	}

	@Operation(operationId = "getWebhookEndpoint", summary = "One webhook endpoint",
			responses = {
					@ApiResponse(responseCode = "200", description = "The endpoint",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = WebhookEndpointView.class))),
					@ApiResponse(responseCode = "404", description = "webhook-endpoint-not-found",
							content = @Content(mediaType = "application/problem+json",
									schema = @Schema(ref = ApiDocumentation.PROBLEM))) })
	@GetMapping("/{id}")
	WebhookEndpointView get(@PathVariable String id) {
		return this.registry.find(client(), parse(id))
			.map((endpoint) -> WebhookEndpointView.of(endpoint, false))
			.orElseThrow(EventProblems::endpointNotFound);
	}

	@Operation(operationId = "rotateWebhookEndpointSecret", summary = "A new signing secret; the old one signs on",
			description = "Deliveries carry a signature by each secret until payonce.events.rotation-overlap has passed.",
			responses = {
					@ApiResponse(responseCode = "200", description = "The endpoint with its new secret",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = WebhookEndpointView.class))),
					@ApiResponse(responseCode = "404", description = "webhook-endpoint-not-found",
							content = @Content(mediaType = "application/problem+json",
									schema = @Schema(ref = ApiDocumentation.PROBLEM))) })
	@PostMapping("/{id}/rotate-secret")
	WebhookEndpointView rotate(@PathVariable String id) {
		return this.registry.rotateSecret(client(), parse(id))
			.map((endpoint) -> WebhookEndpointView.of(endpoint, true))
			.orElseThrow(EventProblems::endpointNotFound);
	}

	@Operation(operationId = "disableWebhookEndpoint", summary = "Stop deliveries to an endpoint",
			responses = {
					@ApiResponse(responseCode = "200", description = "The endpoint, disabled",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = WebhookEndpointView.class))),
					@ApiResponse(responseCode = "404", description = "webhook-endpoint-not-found",
							content = @Content(mediaType = "application/problem+json",
									schema = @Schema(ref = ApiDocumentation.PROBLEM))) })
	@PostMapping("/{id}/disable")
	WebhookEndpointView disable(@PathVariable String id) {
		return this.registry.setEnabled(client(), parse(id), false)
			.map((endpoint) -> WebhookEndpointView.of(endpoint, false))
			.orElseThrow(EventProblems::endpointNotFound);
	}

	@Operation(operationId = "enableWebhookEndpoint", summary = "Deliver to an endpoint again",
			responses = {
					@ApiResponse(responseCode = "200", description = "The endpoint, enabled",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = WebhookEndpointView.class))),
					@ApiResponse(responseCode = "404", description = "webhook-endpoint-not-found",
							content = @Content(mediaType = "application/problem+json",
									schema = @Schema(ref = ApiDocumentation.PROBLEM))) })
	@PostMapping("/{id}/enable")
	WebhookEndpointView enable(@PathVariable String id) {
		return this.registry.setEnabled(client(), parse(id), true)
			.map((endpoint) -> WebhookEndpointView.of(endpoint, false))
			.orElseThrow(EventProblems::endpointNotFound);
	}

	@Operation(operationId = "deleteWebhookEndpoint", summary = "Delete an endpoint and its deliveries",
			responses = {
					@ApiResponse(responseCode = "200", description = "Deleted: the endpoint as it was",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = WebhookEndpointView.class))),
					@ApiResponse(responseCode = "404", description = "webhook-endpoint-not-found",
							content = @Content(mediaType = "application/problem+json",
									schema = @Schema(ref = ApiDocumentation.PROBLEM))) })
	@DeleteMapping("/{id}")
	WebhookEndpointView delete(@PathVariable String id) {
		UUID endpoint = parse(id);
		WebhookEndpoint found = this.registry.find(client(), endpoint).orElseThrow(EventProblems::endpointNotFound);
		if (!this.registry.delete(client(), endpoint)) {
			throw EventProblems.endpointNotFound();
		}
		return WebhookEndpointView.of(found, false);
	}

	private String client() {
		return this.currentClient.clientId().value();
	}

	/** Only the canonical UUID spelling names an endpoint. */
	static UUID parse(String id) {
		return CanonicalIds.parse(id).orElseThrow(EventProblems::endpointNotFound);
	}

}
