package dev.payonce.gateway.stripe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import com.stripe.exception.SignatureVerificationException;
import com.stripe.model.Event;
import com.stripe.net.Webhook;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.payonce.provider.ProviderEventEffect;
import dev.payonce.provider.ProviderEventHandler;
import dev.payonce.web.ApiProblem;
import dev.payonce.web.edge.BodySizeFilter;
import dev.payonce.web.Problems;

/**
 * {@code POST /webhooks/stripe}: Stripe's signed events, at least once, applied exactly
 * once (handed over through {@link ProviderEventHandler}, docs/design.md "Webhooks"). Not
 * behind API-key authentication: the one {@code Stripe-Signature} header, read by
 * {@link StripeSignature} and verified over the raw body before anything parses it,
 * against {@code payonce.gateway.stripe.webhook-signing-secret} and
 * {@code webhook-tolerance}, is the authentication.
 *
 * <p>
 * Consumed: {@code payment_intent.succeeded} and {@code payment_intent.payment_failed} (a
 * PaymentIntent whose {@code metadata[payonce_payment_id]} names a payment) settle
 * PENDING payments; {@code refund.created}, {@code refund.updated}, {@code refund.failed}
 * and {@code charge.refund.updated} (a Refund whose {@code metadata[payonce_refund_id]}
 * names a refund) settle PENDING refunds, and give back a SUCCEEDED refund Stripe reports
 * failed; the same events of a Refund without Payonce's id, and {@code charge.refunded},
 * record refunds made outside Payonce against the payment whose PaymentIntent they name
 * (docs/design.md section 10, "Money moved outside Payonce"). An event whose
 * {@code livemode} is not the secret key's mode is acknowledged and ignored. Every other
 * type is acknowledged and ignored.
 *
 * <p>
 * Answers: {@code 200 {"received":true}} for an event applied, ignored or seen before
 * (Stripe stops delivering it); {@code 400 webhook-signature-invalid} for a missing,
 * repeated, malformed, tampered or stale signature, checked before the body is parsed,
 * and {@code 400 invalid-request} for a signed body that is not a Stripe event, with
 * nothing read or written; {@code 413 payload-too-large} over 16 KiB, as on every
 * endpoint; {@code 409 webhook-event-in-progress} while another delivery of the same
 * event is being handled, and {@code 409 webhook-payment-in-progress} while a request or
 * the reconciler holds the payment or refund, both with {@code Retry-After} (Stripe
 * delivers again).
 */
@RestController
@ConditionalOnProperty(name = "payonce.gateway.provider", havingValue = "stripe")
// Not an operation for Payonce's clients: Stripe defines what it sends, and
// docs/stripe.md
// documents the answers.
@Hidden
class StripeWebhookController {

	private static final Logger log = LoggerFactory.getLogger(StripeWebhookController.class);

	/** Stripe's event ids ({@code evt_...}); also a valid idempotency key. */
	private static final Pattern EVENT_ID = Pattern.compile("[A-Za-z0-9_]{1,255}");

	private static final String SIGNATURE_HEADER = "Stripe-Signature";

	/** Reads the signed body once more for its {@code livemode} alone. */
	private static final ObjectMapper EVENT_READER = JsonMapper.builder().build();

	private final ProviderEventHandler events;

	private final StripeEvents stripeEvents;

	private final StripeProperties properties;

	private final Clock clock;

	StripeWebhookController(ProviderEventHandler events, StripePaymentGateway gateway, StripeProperties properties,
			Clock clock) {
		this.events = events;
		this.properties = properties;
		this.clock = clock;
		StripeMode mode = properties.mode();
		this.stripeEvents = new StripeEvents(mode, gateway.refunds());
		log.info("Stripe webhooks: applying {}-mode events only", mode.name().toLowerCase(Locale.ROOT));
	}

	@PostMapping(path = "/webhooks/stripe", consumes = MediaType.APPLICATION_JSON_VALUE,
			produces = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<Map<String, Object>> receive(HttpServletRequest request, InputStream body) throws IOException {
		// The same limit as every endpoint (a PaymentIntent event is a few KiB); a
		// declared larger length never gets here (BodySizeFilter), a chunked one stops
		// being read here.
		byte[] bytes = body.readNBytes(BodySizeFilter.MAX_BODY_BYTES + 1);
		if (bytes.length > BodySizeFilter.MAX_BODY_BYTES) {
			throw new ErrorResponseException(HttpStatus.CONTENT_TOO_LARGE,
					Problems.payloadTooLarge(BodySizeFilter.MAX_BODY_BYTES), null);
		}
		String header = verified(bytes, Collections.list(request.getHeaders(SIGNATURE_HEADER)));
		// Only a body Stripe signed is read at all.
		Event event = parsed(bytes, header);
		ProviderEventEffect effect = this.events.apply(this.stripeEvents.translate(event, livemode(bytes)));
		return switch (effect) {
			case ProviderEventEffect.Applied applied -> ResponseEntity.ok(Map.of("received", true));
			case ProviderEventEffect.Duplicate duplicate -> ResponseEntity.ok(Map.of("received", true));
			case ProviderEventEffect.Ignored ignored -> ResponseEntity.ok(Map.of("received", true));
			case ProviderEventEffect.InProgress inProgress ->
				throw new ApiProblem(HttpStatus.CONFLICT, "webhook-event-in-progress", "Event in progress",
						"Another delivery of this event is being handled right now; deliver it again later.")
					.retryAfter(inProgress.retryAfter());
			case ProviderEventEffect.Deferred deferred ->
				throw new ApiProblem(HttpStatus.CONFLICT, "webhook-payment-in-progress", "Payment in progress",
						"Another attempt is settling this payment or refund right now; deliver the event again later.")
					.retryAfter(deferred.retryAfter());
		};
	}

	/**
	 * Verifies the raw bytes before anything reads them: exactly one
	 * {@code Stripe-Signature} header (Stripe sends one; two would let a forged one ride
	 * along with a genuine one), in the strict form {@link StripeSignature} reads, whose
	 * one timestamp is within the tolerance of now in both directions and signs the body.
	 */
	private String verified(byte[] body, List<String> headers) {
		if (headers.size() != 1) {
			throw invalidSignature();
		}
		StripeSignature signature = StripeSignature.parse(headers.get(0))
			.orElseThrow(StripeWebhookController::invalidSignature);
		if (!signature.isFresh(this.clock.instant(), this.properties.webhookTolerance())
				|| !signature.signs(body, this.properties.requiredWebhookSigningSecret())) {
			throw invalidSignature();
		}
		return headers.get(0);
	}

	/**
	 * The event a verified body holds. stripe-java's {@code Webhook.constructEvent} is
	 * stripe-java's one public reader of an event (its {@code Gson} is not on the compile
	 * classpath); it parses before it verifies, so it is called only once
	 * {@link #verified} accepted the header, whose strict form stripe-java reads the same
	 * way (one {@code t}, the same {@code v1} list), so its own check agrees.
	 */
	private Event parsed(byte[] body, String header) {
		try {
			Event event = Webhook.constructEvent(new String(body, StandardCharsets.UTF_8), header,
					this.properties.requiredWebhookSigningSecret(), this.properties.webhookTolerance().toSeconds(),
					this.clock);
			if (event == null || event.getId() == null || event.getType() == null
					|| !EVENT_ID.matcher(event.getId()).matches()) {
				throw StripeEvents.notAnEvent();
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
			throw StripeEvents.notAnEvent();
		}
	}

	/**
	 * The event's {@code livemode} as the body spells it: a JSON boolean, or {@code null}
	 * for anything else (absent, {@code null}, the string {@code "false"}, a number).
	 * Stripe's events carry a boolean (https://docs.stripe.com/api/events/object); Gson,
	 * which stripe-java reads events with, would coerce a string, so the mode is read
	 * here from the signed bytes themselves.
	 */
	private static @Nullable Boolean livemode(byte[] body) {
		try {
			JsonNode livemode = EVENT_READER.readTree(body).path("livemode");
			return livemode.isBoolean() ? livemode.booleanValue() : null;
		}
		catch (JacksonException ex) {
			return null;
		}
	}

	private static ApiProblem invalidSignature() {
		return new ApiProblem(HttpStatus.BAD_REQUEST, "webhook-signature-invalid", "Webhook signature invalid",
				"The Stripe-Signature header is missing, does not match the body, or is older than the tolerance.");
	}

}
