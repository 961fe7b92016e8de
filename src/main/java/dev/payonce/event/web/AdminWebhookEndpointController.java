package dev.payonce.event.web;

import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.payonce.event.WebhookEndpoint;
import dev.payonce.event.WebhookEndpointRegistry;
import dev.payonce.web.ApiDocumentation;

/**
 * The operator's view of webhook endpoints disabled because every attempt failed for
 * {@code payonce.events.disable-after} (docs/events.md, "Delivery"); no secret is shown.
 */
@RestController
@Tag(name = "Admin")
@SecurityRequirement(name = ApiDocumentation.ADMIN_TOKEN)
class AdminWebhookEndpointController {

	private final WebhookEndpointRegistry registry;

	AdminWebhookEndpointController(WebhookEndpointRegistry registry) {
		this.registry = registry;
	}

	@Operation(operationId = "listFailingWebhookEndpoints",
			summary = "Every client's webhook endpoints disabled for failing, newest first (at most 200)",
			responses = @ApiResponse(responseCode = "200", description = "The endpoints, without secrets",
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							array = @ArraySchema(schema = @Schema(implementation = AdminView.class)))))
	@GetMapping(path = "/admin/webhook-endpoints/disabled",
			produces = { MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_PROBLEM_JSON_VALUE })
	List<AdminView> disabled() {
		return this.registry.disabledForFailing().stream().map(AdminView::of).toList();
	}

	/**
	 * An endpoint as the operator sees it.
	 *
	 * @param id the endpoint
	 * @param clientId its client
	 * @param url its URL
	 * @param failingSince the first failed attempt of its streak, ISO-8601 UTC
	 */
	@Schema(name = "FailingWebhookEndpoint", requiredProperties = { "id", "clientId", "url", "failingSince" })
	record AdminView(String id, String clientId, String url, String failingSince) {

		static AdminView of(WebhookEndpoint endpoint) {
			return new AdminView(endpoint.id().toString(), endpoint.clientId(), endpoint.url(),
					String.valueOf(endpoint.failingSince()));
		}

	}

}
