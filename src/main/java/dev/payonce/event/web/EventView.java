package dev.payonce.event.web;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Map;

/**
 * An event as the feed and a webhook delivery show it.
 *
 * @param id the event's id, also every delivery's {@code webhook-id}
 * @param type {@code <resource>.<status>}, for example {@code payment.succeeded}
 * @param createdAt when the change committed, ISO-8601 UTC
 * @param delivered whether every endpoint that wanted it received it
 * @param data the resource's receipt as it was then
 */
@Schema(name = "Event", description = "A merchant event. New members and types may appear.",
		requiredProperties = { "id", "type", "createdAt", "delivered", "data" })
record EventView(@Schema(format = "uuid") String id, @Schema(example = "payment.succeeded") String type,
		@Schema(format = "date-time") String createdAt, boolean delivered,
		@Schema(type = "object", additionalProperties = Schema.AdditionalPropertiesValue.TRUE,
				description = "The resource's receipt: a Payment, Refund, Capture or Void, by the type's first word") Map<String, Object> data) {
}
