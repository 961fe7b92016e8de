package dev.payonce.payment;

import org.jspecify.annotations.Nullable;

/**
 * A provider's webhook event, already authenticated by the adapter that received it (for
 * Stripe, its signature verified) and translated out of the provider's types.
 *
 * @param provider the provider's name, for example {@code stripe}; event ids are unique
 * per provider
 * @param eventId the provider's id of the event, 1 to 255 visible ASCII characters; a
 * redelivery carries the same id
 * @param eventType the provider's event type, for logs and the event record
 * @param subject what the event is about in Payonce's terms
 */
public record WebhookEvent(String provider, String eventId, String eventType, Subject subject) {

	/**
	 * What an event is about (docs/design.md, "Webhooks").
	 */
	public sealed interface Subject {

		/**
		 * A Payonce payment (the provider's object carries Payonce's payment id).
		 *
		 * @param paymentId the payment the event names; it may not exist here
		 * @param outcome the final outcome the event states
		 * ({@link GatewayResult.Approved} or {@link GatewayResult.Declined}), or
		 * {@code null} if it states none
		 */
		record OfPayment(PaymentId paymentId, @Nullable GatewayResult outcome) implements Subject {
		}

		/**
		 * A Payonce refund (the provider's object carries Payonce's refund id).
		 *
		 * @param refundId the refund the event names; it may not exist here
		 * @param outcome the final outcome the event states
		 * ({@link GatewayResult.Approved} or {@link GatewayResult.Declined}), or
		 * {@code null} if it states none (a refund still pending at the provider)
		 */
		record OfRefund(RefundId refundId, @Nullable GatewayResult outcome) implements Subject {
		}

		/**
		 * Nothing Payonce acts on: a type it does not consume, or an object that carries
		 * no Payonce id (created outside Payonce).
		 */
		record Unrelated() implements Subject {
		}

	}

}
