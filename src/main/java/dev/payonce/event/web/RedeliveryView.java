package dev.payonce.event.web;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The answer to a redelivery request.
 *
 * @param deliveries how many endpoints the event will be sent to again
 */
@Schema(name = "Redelivery", requiredProperties = "deliveries")
record RedeliveryView(int deliveries) {
}
