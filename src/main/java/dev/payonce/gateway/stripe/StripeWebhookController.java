package dev.payonce.gateway.stripe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import com.stripe.exception.EventDataObjectDeserializationException;
import com.stripe.exception.SignatureVerificationException;
import com.stripe.model.Event;
import com.stripe.model.PaymentIntent;
import com.stripe.model.Refund;
import com.stripe.model.StripeObject;
import com.stripe.net.Webhook;
import io.swagger.v3.oas.annotations.Hidden;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import dev.payonce.payment.GatewayResult;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.PaymentWebhooks;
import dev.payonce.payment.RefundId;
import dev.payonce.payment.WebhookEffect;
import dev.payonce.payment.WebhookEvent;
import dev.payonce.web.ApiProblem;
import dev.payonce.web.BodySizeFilter;
import dev.payonce.web.Problems;

/**
 * {@code POST /webhooks/stripe}: Stripe's signed events, at least once, applied exactly
 * once ({@link PaymentWebhooks}, docs/design.md "Webhooks"). Not behind API-key
 * authentication: the {@code Stripe-Signature} header, verified with stripe-java's
 * {@link Webhook} helper against {@code payonce.gateway.stripe.webhook-signing-secret}
 * and {@code webhook-tolerance}, is the authentication.
 *
 * <p>
 * Consumed: {@code payment_intent.succeeded} and {@code payment_intent.payment_failed} (a
 * PaymentIntent whose {@code metadata[payonce_payment_id]} names a payment) settle
 * PENDING payments; {@code refund.created}, {@code refund.updated}, {@code refund.failed}
 * and {@code charge.refund.updated} (a Refund whose {@code metadata[payonce_refund_id]}
 * names a refund) settle PENDING refunds. Every other type, {@code charge.refunded}
 * included (its Charge does not say which refund, since API version 2022-11-15 no longer
 * expands {@code refunds}), is acknowledged and ignored.
 *
 * <p>
 * Answers: {@code 200 {"received":true}} for an event applied, ignored or seen before
 * (Stripe stops delivering it); {@code 400 webhook-signature-invalid} for a missing,
 * tampered or stale signature, and {@code 400 invalid-request} for a signed body that is
 * not a Stripe event, with nothing read or written; {@code 413 payload-too-large} over 16
 * KiB, as on every endpoint; {@code 409 webhook-event-in-progress} while another delivery
 * of the same event is being handled, and {@code 409 webhook-payment-in-progress} while a
 * request or the reconciler holds the payment or refund, both with {@code Retry-After}
 * (Stripe delivers again).
 */
@RestController
@ConditionalOnProperty(name = "payonce.gateway.provider", havingValue = "stripe")
// Not an operation for Payonce's clients: Stripe defines what it sends, and the README
// documents the answers.
@Hidden
class StripeWebhookController {

	private static final Logger log = LoggerFactory.getLogger(StripeWebhookController.class);

	/** Stripe's event ids ({@code evt_...}); also a valid idempotency key. */
	private static final Pattern EVENT_ID = Pattern.compile("[A-Za-z0-9_]{1,255}");

	private static final Set<String> PAYMENT_INTENT_EVENTS = Set.of("payment_intent.succeeded",
			"payment_intent.payment_failed");

	private static final Set<String> REFUND_EVENTS = Set.of("refund.created", "refund.updated", "refund.failed",
			"charge.refund.updated");

	private final PaymentWebhooks webhooks;

	private final StripeProperties properties;

	private final Clock clock;

	StripeWebhookController(PaymentWebhooks webhooks, StripeProperties properties, Clock clock) {
		this.webhooks = webhooks;
		this.properties = properties;
		this.clock = clock;
	}

	@PostMapping(path = "/webhooks/stripe", consumes = MediaType.APPLICATION_JSON_VALUE,
			produces = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<Map<String, Object>> receive(
			@RequestHeader(name = "Stripe-Signature", required = false) @Nullable String signature, InputStream body)
			throws IOException {
		// The same limit as every endpoint (a PaymentIntent event is a few KiB); a
		// declared larger length never gets here (BodySizeFilter), a chunked one stops
		// being read here.
		byte[] bytes = body.readNBytes(BodySizeFilter.MAX_BODY_BYTES + 1);
		if (bytes.length > BodySizeFilter.MAX_BODY_BYTES) {
			throw new ErrorResponseException(HttpStatus.CONTENT_TOO_LARGE,
					Problems.payloadTooLarge(BodySizeFilter.MAX_BODY_BYTES), null);
		}
		if (signature == null) {
			throw invalidSignature();
		}
		Event event = verified(new String(bytes, StandardCharsets.UTF_8), signature);
		WebhookEffect effect = this.webhooks.apply(translate(event));
		return switch (effect) {
			case WebhookEffect.Applied applied -> ResponseEntity.ok(Map.of("received", true));
			case WebhookEffect.Duplicate duplicate -> ResponseEntity.ok(Map.of("received", true));
			case WebhookEffect.Ignored ignored -> ResponseEntity.ok(Map.of("received", true));
			case WebhookEffect.InProgress inProgress ->
				throw new ApiProblem(HttpStatus.CONFLICT, "webhook-event-in-progress", "Event in progress",
						"Another delivery of this event is being handled right now; deliver it again later.")
					.retryAfter(inProgress.retryAfter());
			case WebhookEffect.Deferred deferred ->
				throw new ApiProblem(HttpStatus.CONFLICT, "webhook-payment-in-progress", "Payment in progress",
						"Another attempt is settling this payment or refund right now; deliver the event again later.")
					.retryAfter(deferred.retryAfter());
		};
	}

	private Event verified(String payload, String signature) {
		if (!timestampAcceptable(signature)) {
			throw invalidSignature();
		}
		try {
			Event event = Webhook.constructEvent(payload, signature, this.properties.requiredWebhookSigningSecret(),
					this.properties.webhookTolerance().toSeconds(), this.clock);
			if (event.getId() == null || event.getType() == null || !EVENT_ID.matcher(event.getId()).matches()) {
				throw notAnEvent();
			}
			return event;
		}
		catch (SignatureVerificationException ex) {
			throw invalidSignature();
		}
		catch (ApiProblem ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			// The signature matched but the body is not JSON: stripe-java parses with
			// Gson, a runtime-only dependency whose unchecked parse exception is not
			// part of stripe-java's API.
			throw notAnEvent();
		}
	}

	/**
	 * Whether the header's timestamp ({@code t=}, seconds since the epoch, UTC) is a
	 * number and not later than now plus the tolerance. stripe-java refuses only a
	 * timestamp too old (and throws an unchecked {@code NumberFormatException} on one
	 * that is not a number); a signed delivery stamped in the future would otherwise be
	 * accepted until then, so a captured one could be replayed for that long.
	 */
	private boolean timestampAcceptable(String signature) {
		for (String item : signature.split(",")) {
			int equals = item.indexOf('=');
			if (equals > 0 && item.substring(0, equals).trim().equals("t")) {
				try {
					long timestamp = Long.parseLong(item.substring(equals + 1).trim());
					return timestamp <= this.clock.instant().getEpochSecond()
							+ this.properties.webhookTolerance().toSeconds();
				}
				catch (NumberFormatException ex) {
					return false;
				}
			}
		}
		return false;
	}

	/** The event in the payment module's terms; no Stripe type leaves this package. */
	private static WebhookEvent translate(Event event) {
		WebhookEvent.Subject subject;
		if (PAYMENT_INTENT_EVENTS.contains(event.getType())) {
			PaymentIntent intent = dataObject(event, PaymentIntent.class)
				.orElseThrow(StripeWebhookController::notAnEvent);
			UUID paymentId = payonceId(intent.getMetadata(), StripePaymentGateway.PAYMENT_ID_METADATA);
			subject = (paymentId != null) ? new WebhookEvent.Subject.OfPayment(new PaymentId(paymentId),
					finalOutcome(StripeOutcomes.of(intent)),
					new WebhookEvent.ProviderObject(intent.getId(),
							StripeAmounts.toMinorUnits(intent.getAmount(), intent.getCurrency()), intent.getCurrency()))
					: new WebhookEvent.Subject.Unrelated();
		}
		else if (REFUND_EVENTS.contains(event.getType())) {
			Refund refund = dataObject(event, Refund.class).orElseThrow(StripeWebhookController::notAnEvent);
			UUID refundId = payonceId(refund.getMetadata(), StripePaymentGateway.REFUND_ID_METADATA);
			subject = (refundId != null) ? new WebhookEvent.Subject.OfRefund(new RefundId(refundId),
					finalOutcome(StripeOutcomes.of(refund)),
					new WebhookEvent.ProviderObject(refund.getId(),
							StripeAmounts.toMinorUnits(refund.getAmount(), refund.getCurrency()), refund.getCurrency()))
					: new WebhookEvent.Subject.Unrelated();
		}
		else {
			subject = new WebhookEvent.Subject.Unrelated();
		}
		return new WebhookEvent("stripe", event.getId(), event.getType(), subject);
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

	private static ApiProblem invalidSignature() {
		return new ApiProblem(HttpStatus.BAD_REQUEST, "webhook-signature-invalid", "Webhook signature invalid",
				"The Stripe-Signature header is missing, does not match the body, or is older than the tolerance.");
	}

	private static ApiProblem notAnEvent() {
		return new ApiProblem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
				"The body is not a Stripe event.");
	}

}
