package dev.payonce.payment;

import org.jspecify.annotations.Nullable;

/**
 * A provider's webhook event about a payment, already authenticated by the adapter that
 * received it (for Stripe, its signature verified) and translated out of the provider's
 * types.
 *
 * @param provider the provider's name, for example {@code stripe}; event ids are unique
 * per provider
 * @param eventId the provider's id of the event; a redelivery carries the same id
 * @param eventType the provider's event type, for logs and the event record
 * @param paymentId the payment the event is about, or {@code null} if the event names
 * none (not a Payonce charge, or a type Payonce does not act on)
 * @param outcome the final outcome the event states ({@link GatewayResult.Approved} or
 * {@link GatewayResult.Declined}), or {@code null} if it states none
 */
public record WebhookEvent(String provider, String eventId, String eventType, @Nullable PaymentId paymentId,
		@Nullable GatewayResult outcome) {

}
