package dev.payonce.gateway.stripe;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import com.stripe.exception.EventDataObjectDeserializationException;
import com.stripe.model.Charge;
import com.stripe.model.Event;
import com.stripe.model.PaymentIntent;
import com.stripe.model.Refund;
import com.stripe.model.StripeObject;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpStatus;

import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.ProviderEvent;
import dev.payonce.web.ApiProblem;

/**
 * Stripe's events in the provider port's terms ({@link ProviderEvent}), for
 * {@link StripeWebhookController} (docs/stripe.md). Consumed:
 * {@code payment_intent.succeeded} and {@code payment_intent.payment_failed} name a
 * payment by the PaymentIntent's {@code metadata[payonce_payment_id]};
 * {@code payment_intent.amount_capturable_updated}, {@code payment_intent.canceled} (of a
 * manual PaymentIntent) and {@code charge.captured} state a hold, which settles the
 * payment's pending capture or void (docs/design.md section 15); {@code refund.created},
 * {@code refund.updated}, {@code refund.failed} and {@code charge.refund.updated} name a
 * refund by the Refund's {@code metadata[payonce_refund_id]}, or without it are a refund
 * made outside Payonce of the PaymentIntent they name, as is every refund of
 * {@code charge.refunded} without it (docs/design.md section 10, "Money moved outside
 * Payonce"). An event whose {@code livemode} is not the secret key's mode is of the other
 * mode, whatever it names; any other type is unrelated. Thread-safe.
 */
final class StripeEvents {

	/** The webhook endpoint's logger. */
	private static final Logger log = LoggerFactory.getLogger(StripeWebhookController.class);

	/**
	 * A Charge with some or all of its amount refunded; {@code amount_refunded} is
	 * cumulative.
	 */
	private static final String CHARGE_REFUNDED = "charge.refunded";

	private static final Pattern CURRENCY = Pattern.compile("[A-Za-z]{3}");

	private static final Set<String> PAYMENT_INTENT_EVENTS = Set.of("payment_intent.succeeded",
			"payment_intent.payment_failed");

	/**
	 * Events of a PaymentIntent whose hold changed: Stripe sends
	 * {@code payment_intent.amount_capturable_updated} when a PaymentIntent has funds to
	 * capture (and as captures take them) and {@code payment_intent.canceled} when it is
	 * canceled, by a void or by its hold lapsing
	 * (https://docs.stripe.com/api/events/types).
	 */
	private static final Set<String> HOLD_EVENTS = Set.of("payment_intent.amount_capturable_updated",
			"payment_intent.canceled");

	/** A Charge captured, with its cumulative {@code amount_captured}. */
	private static final String CHARGE_CAPTURED = "charge.captured";

	private static final Set<String> REFUND_EVENTS = Set.of("refund.created", "refund.updated", "refund.failed",
			"charge.refund.updated");

	/** How soon a delivery answered 503 may come again. */
	private static final Duration PROVIDER_RETRY = Duration.ofMinutes(1);

	/** The secret key's mode: events of the other one are ignored. */
	private final StripeMode mode;

	private final StripeRefunds refunds;

	StripeEvents(StripeMode mode, StripeRefunds refunds) {
		this.mode = mode;
		this.refunds = refunds;
	}

	/**
	 * The event in the provider port's terms, with Payonce's ids as they are in the
	 * object's metadata; no Stripe type leaves this package.
	 * @param event the verified event
	 * @param livemode the body's {@code livemode} if it is a JSON boolean, else
	 * {@code null}
	 * @return the event to hand over
	 * @throws ApiProblem {@code 400 invalid-request} if a consumed event carries no
	 * object of its type, {@code 503 webhook-provider-unavailable} if a charge's refunds
	 * cannot be read from Stripe
	 */
	ProviderEvent translate(Event event, @Nullable Boolean livemode) {
		ProviderEvent.Subject subject;
		if (livemode == null || livemode != this.mode.livemode()) {
			// docs/design.md section 10: an event of the other mode never settles
			// anything here, whatever its object names.
			subject = new ProviderEvent.Subject.OtherMode();
		}
		else if (PAYMENT_INTENT_EVENTS.contains(event.getType())) {
			PaymentIntent intent = dataObject(event, PaymentIntent.class).orElseThrow(StripeEvents::notAnEvent);
			UUID paymentId = payonceId(intent.getMetadata(), StripeCharges.PAYMENT_ID_METADATA);
			subject = (paymentId != null) ? new ProviderEvent.Subject.OfPayment(paymentId,
					finalOutcome(StripeOutcomes.of(intent)),
					new ProviderEvent.ProviderObject(intent.getId(),
							StripeAmounts.toMinorUnits(intent.getAmount(), intent.getCurrency()), intent.getCurrency()))
					: new ProviderEvent.Subject.Unrelated();
		}
		else if (HOLD_EVENTS.contains(event.getType())) {
			subject = hold(dataObject(event, PaymentIntent.class).orElseThrow(StripeEvents::notAnEvent));
		}
		else if (CHARGE_CAPTURED.equals(event.getType())) {
			subject = hold(dataObject(event, Charge.class).orElseThrow(StripeEvents::notAnEvent));
		}
		else if (REFUND_EVENTS.contains(event.getType())) {
			Refund refund = dataObject(event, Refund.class).orElseThrow(StripeEvents::notAnEvent);
			UUID refundId = payonceId(refund.getMetadata(), StripeRefunds.REFUND_ID_METADATA);
			if (refundId != null) {
				subject = new ProviderEvent.Subject.OfRefund(refundId, finalOutcome(StripeOutcomes.of(refund)),
						new ProviderEvent.ProviderObject(refund.getId(),
								StripeAmounts.toMinorUnits(refund.getAmount(), refund.getCurrency()),
								refund.getCurrency()));
			}
			else {
				// Made outside Payonce: in the Dashboard, or by the API without
				// Payonce's refund id.
				Optional<ProviderEvent.ProviderRefund> outside = providerRefund(refund);
				subject = (outside.isPresent() && refund.getPaymentIntent() != null)
						? new ProviderEvent.Subject.OfProviderRefunds(refund.getPaymentIntent(), List.of(outside.get()),
								null)
						: new ProviderEvent.Subject.Unrelated();
			}
		}
		else if (CHARGE_REFUNDED.equals(event.getType())) {
			Charge charge = dataObject(event, Charge.class).orElseThrow(StripeEvents::notAnEvent);
			subject = (charge.getPaymentIntent() != null)
					? new ProviderEvent.Subject.OfProviderRefunds(charge.getPaymentIntent(),
							refundsOutsidePayonce(charge.getPaymentIntent(), charge),
							StripeAmounts.toMinorUnits(charge.getAmountRefunded(), charge.getCurrency()))
					: new ProviderEvent.Subject.Unrelated();
		}
		else {
			subject = new ProviderEvent.Subject.Unrelated();
		}
		return new ProviderEvent("stripe", event.getId(), event.getType(), subject);
	}

	/**
	 * A manual PaymentIntent's hold in the provider port's terms:
	 * {@code requires_capture} is held, {@code succeeded} captured for good,
	 * {@code canceled} released
	 * (https://docs.stripe.com/api/payment_intents/object#payment_intent_object-status);
	 * {@code amount_received} is what its captures took. A PaymentIntent captured at once
	 * holds nothing: unrelated.
	 */
	private static ProviderEvent.Subject hold(PaymentIntent intent) {
		Long received = StripeAmounts.toMinorUnits(intent.getAmountReceived(), intent.getCurrency());
		if (!"manual".equals(intent.getCaptureMethod()) || received == null || intent.getId() == null) {
			return new ProviderEvent.Subject.Unrelated();
		}
		ProviderEvent.Hold hold = switch (String.valueOf(intent.getStatus())) {
			case "succeeded" -> ProviderEvent.Hold.CAPTURED;
			case "canceled" -> ProviderEvent.Hold.RELEASED;
			default -> ProviderEvent.Hold.HELD;
		};
		return new ProviderEvent.Subject.OfHold(payonceId(intent.getMetadata(), StripeCharges.PAYMENT_ID_METADATA),
				intent.getId(), finalOutcome(StripeOutcomes.of(intent)), hold, received, intent.getLatestCharge(),
				new ProviderEvent.ProviderObject(intent.getId(),
						StripeAmounts.toMinorUnits(intent.getAmount(), intent.getCurrency()), intent.getCurrency()));
	}

	/**
	 * A captured Charge's hold: {@code amount_captured} is what captures took; all of its
	 * {@code amount} captured is captured for good, less is still held as far as the
	 * Charge tells (https://docs.stripe.com/api/charges/object). It names its
	 * PaymentIntent, which names the payment.
	 */
	private static ProviderEvent.Subject hold(Charge charge) {
		Long captured = StripeAmounts.toMinorUnits(charge.getAmountCaptured(), charge.getCurrency());
		Long amount = StripeAmounts.toMinorUnits(charge.getAmount(), charge.getCurrency());
		if (charge.getPaymentIntent() == null || captured == null || amount == null) {
			return new ProviderEvent.Subject.Unrelated();
		}
		return new ProviderEvent.Subject.OfHold(payonceId(charge.getMetadata(), StripeCharges.PAYMENT_ID_METADATA),
				charge.getPaymentIntent(), null,
				captured.equals(amount) ? ProviderEvent.Hold.CAPTURED : ProviderEvent.Hold.HELD, captured,
				charge.getId(),
				new ProviderEvent.ProviderObject(charge.getPaymentIntent(), amount, charge.getCurrency()));
	}

	/**
	 * The refunds of a charge that Payonce did not make. Since API version 2022-11-15 a
	 * Charge no longer includes {@code refunds} unless expanded
	 * (https://docs.stripe.com/upgrades#2022-11-15), so for a {@code charge.refunded}
	 * without them the PaymentIntent's refunds are listed at Stripe (a list reads
	 * Stripe's own writes); if Stripe cannot be read the event is answered 503 and Stripe
	 * delivers it again.
	 */
	private List<ProviderEvent.ProviderRefund> refundsOutsidePayonce(String paymentIntent, Charge charge) {
		List<Refund> refunds = (charge.getRefunds() != null && charge.getRefunds().getData() != null)
				? charge.getRefunds().getData()
				: this.refunds.refundsOf(paymentIntent)
					.orElseThrow(() -> new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, "webhook-provider-unavailable",
							"Provider unavailable",
							"The charge's refunds could not be read from Stripe; nothing was recorded. "
									+ "Deliver the event again later.")
						.retryAfter(PROVIDER_RETRY));
		return refunds.stream()
			.filter((refund) -> payonceId(refund.getMetadata(), StripeRefunds.REFUND_ID_METADATA) == null)
			.filter((refund) -> paymentIntent.equals(refund.getPaymentIntent()))
			.flatMap((refund) -> providerRefund(refund).stream())
			.toList();
	}

	/**
	 * A Refund in the provider port's terms, by its documented status
	 * (https://docs.stripe.com/api/refunds/object#refund_object-status); empty if it
	 * lacks an id, a positive amount, a currency or a known status.
	 */
	private static Optional<ProviderEvent.ProviderRefund> providerRefund(Refund refund) {
		String id = refund.getId();
		// Stripe's units to ISO 4217 minor units (StripeAmounts): null when not whole.
		Long amount = StripeAmounts.toMinorUnits(refund.getAmount(), refund.getCurrency());
		String currency = refund.getCurrency();
		ProviderEvent.ProviderRefundStatus status = switch (String.valueOf(refund.getStatus())) {
			case "pending", "requires_action" -> ProviderEvent.ProviderRefundStatus.PENDING;
			case "succeeded" -> ProviderEvent.ProviderRefundStatus.SUCCEEDED;
			case "failed", "canceled" -> ProviderEvent.ProviderRefundStatus.FAILED;
			default -> null;
		};
		if (id == null || id.isBlank() || id.length() > 255 || amount == null || amount < 1 || currency == null
				|| !CURRENCY.matcher(currency).matches() || status == null) {
			return Optional.empty();
		}
		return Optional.of(new ProviderEvent.ProviderRefund(id, amount, currency, status));
	}

	private static @Nullable GatewayResult finalOutcome(GatewayResult outcome) {
		return (outcome instanceof GatewayResult.Approved || outcome instanceof GatewayResult.Declined) ? outcome
				: null;
	}

	/**
	 * The event's data object; an event of another API version than stripe-java's, or of
	 * none ({@code api_version} is null on events older than 2014-10-31 per Stripe's API
	 * reference, and stripe-java's version check then throws), is read leniently, as
	 * Stripe's documentation suggests for events sent with the account's default version.
	 * Empty when the event has no data object of this type or one stripe-java cannot
	 * read: the caller answers 400, never 500.
	 */
	private static <T extends StripeObject> Optional<T> dataObject(Event event, Class<T> type) {
		try {
			Optional<StripeObject> object = Optional.empty();
			if (event.getApiVersion() != null) {
				object = event.getDataObjectDeserializer().getObject();
			}
			StripeObject data = object.isPresent() ? object.get()
					: event.getDataObjectDeserializer().deserializeUnsafe();
			return type.isInstance(data) ? Optional.of(type.cast(data)) : Optional.empty();
		}
		catch (EventDataObjectDeserializationException | RuntimeException ex) {
			log.warn("Stripe event {} ({}) has a data object stripe-java cannot read", event.getId(), event.getType());
			return Optional.empty();
		}
	}

	/** Payonce's id in the object's metadata, or null if it carries none. */
	private static @Nullable UUID payonceId(@Nullable Map<String, String> metadata, String key) {
		String value = (metadata != null) ? metadata.get(key) : null;
		if (value == null) {
			return null;
		}
		try {
			return UUID.fromString(value);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	static ApiProblem notAnEvent() {
		return new ApiProblem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
				"The body is not a Stripe event.");
	}

}
