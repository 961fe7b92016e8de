package dev.payonce.gateway.stripe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import com.stripe.exception.EventDataObjectDeserializationException;
import com.stripe.exception.SignatureVerificationException;
import com.stripe.model.Event;
import com.stripe.model.PaymentIntent;
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
import dev.payonce.payment.WebhookEffect;
import dev.payonce.payment.WebhookEvent;
import dev.payonce.web.ApiProblem;
import dev.payonce.web.BodySizeFilter;
import dev.payonce.web.Problems;

/**
 * {@code POST /webhooks/stripe}: Stripe's signed events, at least once, applied exactly
 * once ({@link PaymentWebhooks}). Not behind API-key authentication: the
 * {@code Stripe-Signature} header, verified with stripe-java's {@link Webhook} helper
 * against {@code payonce.gateway.stripe.webhook-signing-secret} and
 * {@code webhook-tolerance}, is the authentication.
 *
 * <p>
 * Answers: {@code 200 {"received":true}} for an event applied, ignored or seen before
 * (Stripe stops delivering it); {@code 400 webhook-signature-invalid} for a missing,
 * tampered or stale signature, and {@code 400 invalid-request} for a signed body that is
 * not a Stripe event, with nothing read or written; {@code 413 payload-too-large} over 16
 * KiB, as on every endpoint; {@code 409 webhook-payment-in-progress} with
 * {@code Retry-After} while a request or the reconciler holds the payment (Stripe
 * delivers again). {@code payment_intent.succeeded} and
 * {@code payment_intent.payment_failed} settle PENDING payments; every other type is
 * acknowledged and ignored.
 */
@RestController
@ConditionalOnProperty(name = "payonce.gateway.provider", havingValue = "stripe")
// Not an operation for Payonce's clients: Stripe defines what it sends, and the README
// documents the answers.
@Hidden
class StripeWebhookController {

	private static final Logger log = LoggerFactory.getLogger(StripeWebhookController.class);

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
		if (effect instanceof WebhookEffect.Deferred deferred) {
			throw new ApiProblem(HttpStatus.CONFLICT, "webhook-payment-in-progress", "Payment in progress",
					"Another attempt is settling this payment right now; deliver the event again later.")
				.retryAfter(deferred.retryAfter());
		}
		return ResponseEntity.ok(Map.of("received", true));
	}

	private Event verified(String payload, String signature) {
		try {
			Event event = Webhook.constructEvent(payload, signature, this.properties.requiredWebhookSigningSecret(),
					this.properties.webhookTolerance().toSeconds(), this.clock);
			if (event.getId() == null || event.getType() == null) {
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

	/** The event in the payment module's terms; no Stripe type leaves this package. */
	private static WebhookEvent translate(Event event) {
		if (!"payment_intent.succeeded".equals(event.getType())
				&& !"payment_intent.payment_failed".equals(event.getType())) {
			return new WebhookEvent("stripe", event.getId(), event.getType(), null, null);
		}
		Optional<PaymentIntent> intent = paymentIntent(event);
		if (intent.isEmpty()) {
			throw notAnEvent();
		}
		PaymentId paymentId = paymentId(intent.get());
		GatewayResult outcome = StripeOutcomes.of(intent.get());
		boolean fin = outcome instanceof GatewayResult.Approved || outcome instanceof GatewayResult.Declined;
		return new WebhookEvent("stripe", event.getId(), event.getType(), paymentId, fin ? outcome : null);
	}

	/**
	 * The event's PaymentIntent; an event of another API version than stripe-java's is
	 * read leniently, as Stripe's documentation suggests for events sent with the
	 * account's default version.
	 */
	private static Optional<PaymentIntent> paymentIntent(Event event) {
		Optional<StripeObject> object = event.getDataObjectDeserializer().getObject();
		try {
			StripeObject data = object.isPresent() ? object.get()
					: event.getDataObjectDeserializer().deserializeUnsafe();
			return (data instanceof PaymentIntent intent) ? Optional.of(intent) : Optional.empty();
		}
		catch (EventDataObjectDeserializationException | RuntimeException ex) {
			log.warn("Stripe event {} ({}) has a data object stripe-java cannot read", event.getId(), event.getType());
			return Optional.empty();
		}
	}

	private static @Nullable PaymentId paymentId(PaymentIntent intent) {
		String value = (intent.getMetadata() != null)
				? intent.getMetadata().get(StripePaymentGateway.PAYMENT_ID_METADATA) : null;
		if (value == null) {
			return null;
		}
		try {
			return new PaymentId(UUID.fromString(value));
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
