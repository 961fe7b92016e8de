package dev.payonce.provider;

import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * A provider's event as an adapter hands it over ({@link ProviderEventHandler}): already
 * authenticated by the adapter that received it (for Stripe, its signature verified),
 * translated out of the provider's types into plain ids, strings, minor units and a
 * {@link GatewayResult}, and judged against the provider account's mode the adapter's key
 * is of. Which payment or refund an id names is for the receiving operation to find
 * (docs/design.md, "Webhooks").
 *
 * @param provider the provider's name, for example {@code stripe}; event ids are unique
 * per provider
 * @param eventId the provider's id of the event, 1 to 255 visible ASCII characters; a
 * redelivery carries the same id
 * @param eventType the provider's event type, for logs and the event record
 * @param subject what the event is about in Payonce's terms
 */
public record ProviderEvent(String provider, String eventId, String eventType, Subject subject) {

	/**
	 * What an event is about (docs/design.md, "Webhooks").
	 */
	public sealed interface Subject {

		/**
		 * A Payonce payment (the provider's object carries Payonce's payment id).
		 *
		 * @param paymentId the id of the payment the event names, as Payonce gave it to
		 * the provider; no such payment may exist
		 * @param outcome the final outcome the event states
		 * ({@link GatewayResult.Approved} or {@link GatewayResult.Declined}), or
		 * {@code null} if it states none
		 * @param object what the provider's object says of itself: its id, amount and
		 * currency, checked against the payment before anything is applied
		 */
		record OfPayment(UUID paymentId, @Nullable GatewayResult outcome, ProviderObject object) implements Subject {
		}

		/**
		 * A Payonce refund (the provider's object carries Payonce's refund id).
		 *
		 * @param refundId the id of the refund the event names, as Payonce gave it to the
		 * provider; no such refund may exist
		 * @param outcome the final outcome the event states
		 * ({@link GatewayResult.Approved} or {@link GatewayResult.Declined}), or
		 * {@code null} if it states none (a refund still pending at the provider)
		 * @param object what the provider's object says of itself: its id, amount and
		 * currency, checked against the refund before anything is applied
		 */
		record OfRefund(UUID refundId, @Nullable GatewayResult outcome, ProviderObject object) implements Subject {
		}

		/**
		 * The authorization of a manual payment as the provider states it now: what its
		 * captures took in all and whether what no capture took was released. It settles
		 * the payment's pending capture or void (docs/design.md section 15), or, while
		 * the payment itself is PENDING, the payment as {@link OfPayment} would.
		 *
		 * @param paymentId the payment the provider's object names (Stripe:
		 * {@code metadata[payonce_payment_id]}), or {@code null} if it names none
		 * (Stripe's Charge); the payment is then found by {@code paymentReference}
		 * @param paymentReference the provider's id of the authorized charge (Stripe: the
		 * PaymentIntent, {@code pi_...})
		 * @param outcome the final outcome of the authorization itself, as a charge
		 * lookup would state it ({@link GatewayResult.Approved} while held or once
		 * captured), or {@code null} if it states none
		 * @param hold where the authorization stands
		 * @param captured what the provider's captures took of it in all, in minor units
		 * @param captureReference the provider's id of what the captures took the money
		 * by (Stripe: the Charge, {@code ch_...}), or {@code null} if none is named
		 * @param object the provider's object of the authorization, checked against the
		 * payment before anything is applied
		 */
		record OfHold(@Nullable UUID paymentId, String paymentReference, @Nullable GatewayResult outcome, Hold hold,
				long captured, @Nullable String captureReference, ProviderObject object) implements Subject {
		}

		/**
		 * Refunds the provider made of a payment's charge without Payonce: in the
		 * provider's dashboard, or by its API without Payonce's refund id. Each is
		 * recorded once by its provider reference and reduces what remains refundable
		 * (docs/design.md section 10, "Money moved outside Payonce").
		 *
		 * @param paymentReference the provider reference of the refunded charge (Stripe:
		 * the PaymentIntent, {@code pi_...}), which names the payment
		 * @param refunds the refunds the event states, each as it stands now; empty if
		 * the event names the charge but not its refunds
		 * @param totalRefunded the provider's total refunded of the charge, in minor
		 * units, or {@code null} if the event does not state it (Stripe's
		 * {@code charge.refunded} states it as {@code amount_refunded})
		 */
		record OfProviderRefunds(String paymentReference, List<ProviderRefund> refunds,
				@Nullable Long totalRefunded) implements Subject {

			public OfProviderRefunds {
				refunds = List.copyOf(refunds);
			}

		}

		/**
		 * An event of the provider account's other mode (Stripe: {@code livemode} differs
		 * from the secret key's mode): never applied, recorded as ignored (docs/design.md
		 * section 10).
		 */
		record OtherMode() implements Subject {
		}

		/**
		 * Nothing Payonce acts on: a type it does not consume, or an object that carries
		 * no Payonce id (created outside Payonce).
		 */
		record Unrelated() implements Subject {
		}

	}

	/**
	 * Where a manual payment's authorization stands at the provider (docs/design.md
	 * section 15).
	 */
	public enum Hold {

		/** Money is still held and capturable (Stripe: {@code requires_capture}). */
		HELD,

		/**
		 * Captured for good: nothing is capturable any more (Stripe: {@code succeeded}).
		 */
		CAPTURED,

		/**
		 * What no capture took was released: canceled, or lapsed (Stripe:
		 * {@code canceled}).
		 */
		RELEASED

	}

	/**
	 * A refund at the provider that Payonce did not make, as an event states it now.
	 *
	 * @param providerReference the provider's id of the refund (Stripe: {@code re_...}),
	 * the key it is recorded under
	 * @param amount minor units, at least 1
	 * @param currency ISO 4217 code, in any case
	 * @param status where it stands at the provider
	 */
	public record ProviderRefund(String providerReference, long amount, String currency, ProviderRefundStatus status) {

		public ProviderRefund {
			if (providerReference.isBlank() || providerReference.length() > 255) {
				throw new IllegalArgumentException(
						"A provider refund reference is 1 to 255 characters, not " + providerReference.length());
			}
			if (amount < 1) {
				throw new IllegalArgumentException(
						"A provider refund's amount is at least 1 minor unit, not " + amount);
			}
		}

	}

	/**
	 * Where a refund made outside Payonce stands at the provider. {@link #PENDING} and
	 * {@link #SUCCEEDED} hold the money (Stripe deducts a refund from the charge when it
	 * is created); {@link #FAILED} gives it back. Stripe: {@code pending} and
	 * {@code requires_action} are PENDING, {@code succeeded} SUCCEEDED, {@code failed}
	 * and {@code canceled} FAILED
	 * (https://docs.stripe.com/api/refunds/object#refund_object-status).
	 */
	public enum ProviderRefundStatus {

		/** Created, not final yet; counted. */
		PENDING,

		/**
		 * Refunded; counted. May still fail
		 * (https://docs.stripe.com/refunds#failed-refunds).
		 */
		SUCCEEDED,

		/** Failed or canceled: final, not counted. */
		FAILED;

		/**
		 * Whether a refund in this status holds its amount of the charge.
		 * @return true for PENDING and SUCCEEDED
		 */
		public boolean counts() {
			return this != FAILED;
		}

		/**
		 * Whether a refund may move from this status to the given one: only forwards,
		 * PENDING to SUCCEEDED or FAILED and SUCCEEDED to FAILED, so out-of-order events
		 * never move a refund back.
		 * @param next the status an event states
		 * @return true if the refund moves
		 */
		public boolean movesTo(ProviderRefundStatus next) {
			return switch (this) {
				case PENDING -> next != PENDING;
				case SUCCEEDED -> next == FAILED;
				case FAILED -> false;
			};
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
