package dev.payonce.event.web;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

import dev.payonce.event.WebhookEndpoint;

/**
 * A webhook endpoint as the API shows it; the signing secret only in the answers that
 * create or rotate it.
 *
 * @param id the endpoint's id
 * @param url where events are POSTed
 * @param eventTypes the types it receives, or {@code *}
 * @param status {@code ENABLED} or {@code DISABLED}
 * @param disabledReason {@code client} or {@code failing}; absent while enabled
 * @param secret the signing secret ({@code whsec_...}); only when created or rotated
 * @param createdAt when it was registered, ISO-8601 UTC
 */
@Schema(name = "WebhookEndpoint", description = "A webhook endpoint of the calling client. New members may appear.",
		requiredProperties = { "id", "url", "eventTypes", "status", "createdAt" })
record WebhookEndpointView(@Schema(format = "uuid") String id, @Schema(format = "uri") String url,
		List<String> eventTypes, @Schema(allowableValues = {
				"ENABLED", "DISABLED" }) String status,
		@JsonInclude(JsonInclude.Include.NON_NULL) @Schema(
				allowableValues = { "client", "failing" }) @Nullable String disabledReason,
		@JsonInclude(JsonInclude.Include.NON_NULL) @Schema(
				description = "Standard Webhooks signing secret; shown only when created or rotated",
				pattern = "^whsec_[A-Za-z0-9+/=]+$") @Nullable String secret,
		@Schema(format = "date-time") String createdAt){

	static WebhookEndpointView of(WebhookEndpoint endpoint, boolean withSecret) {
		return new WebhookEndpointView(endpoint.id().toString(), endpoint.url(), endpoint.eventTypes(),
				endpoint.status(), endpoint.disabledReason(), withSecret ? endpoint.secret() : null,
				endpoint.createdAt().toString());
	}

}
