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
		 * @param object what the provider's object says of itself: its id, amount and
		 * currency, checked against the payment before anything is applied
		 */
		record OfPayment(PaymentId paymentId, @Nullable GatewayResult outcome,
				ProviderObject object) implements Subject {
		}

		/**
		 * A Payonce refund (the provider's object carries Payonce's refund id).
		 *
		 * @param refundId the refund the event names; it may not exist here
		 * @param outcome the final outcome the event states
		 * ({@link GatewayResult.Approved} or {@link GatewayResult.Declined}), or
		 * {@code null} if it states none (a refund still pending at the provider)
		 * @param object what the provider's object says of itself: its id, amount and
		 * currency, checked against the refund before anything is applied
		 */
		record OfRefund(RefundId refundId, @Nullable GatewayResult outcome, ProviderObject object) implements Subject {
		}

		/**
		 * Nothing Payonce acts on: a type it does not consume, or an object that carries
		 * no Payonce id (created outside Payonce).
		 */
		record Unrelated() implements Subject {
		}

	}

	/**
	 * The provider's own description of the object an event carries. An event is applied
	 * only if it matches the payment or refund it names: the same amount in minor units,
	 * the same currency, and, once Payonce knows the provider reference, the same one
	 * (docs/design.md section 10). The metadata naming Payonce's id alone is not enough:
	 * it is set by whoever creates the provider's object.
	 *
	 * @param providerReference the provider's id of the object (Stripe: {@code pi_...},
	 * {@code re_...}), or {@code null} if the event carries none
	 * @param amount the object's amount in minor units, or {@code null} if absent
	 * @param currency the object's ISO 4217 currency code in any case, or {@code null}
	 */
	public record ProviderObject(@Nullable String providerReference, @Nullable Long amount, @Nullable String currency) {

		/**
		 * Whether this object describes the given money and provider reference.
		 * @param money the payment's or refund's amount
		 * @param knownReference the provider reference Payonce stored, or {@code null}
		 * @return true only if amount and currency are equal and the reference is equal
		 * or not yet known
		 */
		public boolean matches(Money money, @Nullable String knownReference) {
			return this.amount != null && this.amount == money.minorUnits() && this.currency != null
					&& this.currency.equalsIgnoreCase(money.currency().getCurrencyCode())
					&& (knownReference == null || knownReference.equals(this.providerReference));
		}

	}

}
