package dev.payonce.event.web;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.payonce.client.CurrentClient;
import dev.payonce.event.EventFeed;
import dev.payonce.event.WebhookEndpointRegistry;
import dev.payonce.web.ApiDocumentation;
import dev.payonce.web.CanonicalIds;

/**
 * The calling client's event feed (docs/events.md, "The feed"): {@code GET /events}
 * newest first with a cursor ({@code starting_after}), filtered by {@code type} and by
 * {@code undelivered}; {@code GET /events/{id}}; and a redelivery of one event.
 */
@RestController
@RequestMapping(path = "/events",
		produces = { MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_PROBLEM_JSON_VALUE })
@Tag(name = "Events", description = "What changed for the calling client, kept for payonce.events.retention")
@SecurityRequirement(name = ApiDocumentation.API_KEY)
class EventController {

	private static final int DEFAULT_LIMIT = 10;

	private static final int MAX_LIMIT = 100;

	private final EventFeed feed;

	private final CurrentClient currentClient;

	private final JsonMapper json;

	EventController(EventFeed feed, CurrentClient currentClient, JsonMapper json) {
		this.feed = feed;
		this.currentClient = currentClient;
		this.json = json;
	}

	@Operation(operationId = "listEvents", summary = "The calling client's events, newest first", responses = {
			@ApiResponse(responseCode = "200", description = "One page",
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = EventPageView.class))),
			@ApiResponse(responseCode = "400",
					description = "invalid-request: a query parameter is malformed or the cursor names no event",
					content = @Content(mediaType = "application/problem+json",
							schema = @Schema(ref = ApiDocumentation.PROBLEM))) })
	@GetMapping
	EventPageView list(
			@Parameter(description = "Only events of this type") @RequestParam(required = false) @Nullable String type,
			@Parameter(description = "Only events some endpoint has not received yet") @RequestParam(
					required = false) @Nullable String undelivered,
			@Parameter(description = "The id of the last event of the previous page") @RequestParam(
					name = "starting_after", required = false) @Nullable String startingAfter,
			@Parameter(description = "1 to 100, default 10") @RequestParam(required = false) @Nullable String limit) {
		if (type != null && !WebhookEndpointRegistry.TYPES.contains(type)) {
			throw invalid("type", "unknown event type");
		}
		if (undelivered != null && !undelivered.equals("true") && !undelivered.equals("false")) {
			throw invalid("undelivered", "true or false");
		}
		int size = DEFAULT_LIMIT;
		if (limit != null) {
			if (!limit.matches("[1-9][0-9]{0,2}") || Integer.parseInt(limit) > MAX_LIMIT) {
				throw invalid("limit", "an integer from 1 to " + MAX_LIMIT);
			}
			size = Integer.parseInt(limit);
		}
		UUID after = null;
		if (startingAfter != null) {
			after = parseOrNull(startingAfter);
			if (after == null) {
				throw invalid("starting_after", "the id of an event");
			}
		}
		EventFeed.Page page = this.feed.page(client(), type, "true".equals(undelivered), after, size)
			.orElseThrow(() -> invalid("starting_after",
					"names no event of this client: pass the id of the last event of the previous page"));
		return new EventPageView(page.events().stream().map(this::view).toList(), page.hasMore());
	}

	@Operation(operationId = "getEvent", summary = "One event",
			responses = {
					@ApiResponse(responseCode = "200", description = "The event",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = EventView.class))),
					@ApiResponse(responseCode = "404", description = "event-not-found",
							content = @Content(mediaType = "application/problem+json",
									schema = @Schema(ref = ApiDocumentation.PROBLEM))) })
	@GetMapping("/{id}")
	EventView get(@PathVariable String id) {
		UUID event = parseOrNull(id);
		if (event == null) {
			throw EventProblems.eventNotFound();
		}
		return this.feed.find(client(), event).map(this::view).orElseThrow(EventProblems::eventNotFound);
	}

	@Operation(operationId = "redeliverEvent", summary = "Deliver one event again to every endpoint that wants it",
			description = "The same webhook-id as before: a receiver that already has it deduplicates it.",
			responses = {
					@ApiResponse(responseCode = "202", description = "Scheduled; deliveries is how many endpoints",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = RedeliveryView.class))),
					@ApiResponse(responseCode = "404", description = "event-not-found",
							content = @Content(mediaType = "application/problem+json",
									schema = @Schema(ref = ApiDocumentation.PROBLEM))) })
	@PostMapping("/{id}/redeliver")
	ResponseEntity<RedeliveryView> redeliver(@PathVariable String id) {
		UUID event = parseOrNull(id);
		if (event == null) {
			throw EventProblems.eventNotFound();
		}
		int scheduled = this.feed.redeliver(client(), event).orElseThrow(EventProblems::eventNotFound);
		return ResponseEntity.status(HttpStatus.ACCEPTED).body(new RedeliveryView(scheduled));
	}

	private EventView view(EventFeed.Event event) {
		return new EventView(event.id().toString(), event.type(), event.createdAt().toString(), event.delivered(),
				readMap(event.payload()));
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> readMap(String payload) {
		return this.json.readValue(payload, Map.class);
	}

	private String client() {
		return this.currentClient.clientId().value();
	}

	private static dev.payonce.web.ApiProblem invalid(String parameter, String message) {
		return EventProblems.invalid(List.of(new WebhookEndpointRegistry.Invalid.Error(parameter, message)));
	}

	private static @Nullable UUID parseOrNull(String id) {
		return CanonicalIds.parse(id).orElse(null);
	}

}
