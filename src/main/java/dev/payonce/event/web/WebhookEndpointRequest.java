package dev.payonce.event.web;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * The body of {@code POST /webhook-endpoints}.
 *
 * @param url an absolute http or https URL, at most 2048 characters, whose host resolves
 * only to public addresses
 * @param eventTypes the event types to receive, or {@code ["*"]} for all
 */
@Schema(name = "WebhookEndpointRequest", requiredProperties = { "url", "eventTypes" })
record WebhookEndpointRequest(
		@Schema(format = "uri", maxLength = 2048, example = "https://shop.example/payonce-events") @Nullable String url,
		@Schema(example = "[\"payment.succeeded\", \"refund.succeeded\"]") @Nullable List<String> eventTypes) {
}
