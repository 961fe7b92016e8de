package dev.payonce.gateway.stripe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import com.stripe.exception.EventDataObjectDeserializationException;
import com.stripe.exception.SignatureVerificationException;
import com.stripe.model.Charge;
import com.stripe.model.Event;
import com.stripe.model.PaymentIntent;
import com.stripe.model.Refund;
import com.stripe.model.StripeObject;
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

import dev.payonce.provider.GatewayResult;
import dev.payonce.payment.PaymentId;
import dev.payonce.webhook.ProviderEvents;
import dev.payonce.refund.RefundId;
import dev.payonce.webhook.WebhookEffect;
import dev.payonce.webhook.WebhookEvent;
import dev.payonce.web.ApiProblem;
import dev.payonce.web.edge.BodySizeFilter;
import dev.payonce.web.Problems;

/**
 * {@code POST /webhooks/stripe}: Stripe's signed events, at least once, applied exactly
 * once ({@link ProviderEvents}, docs/design.md "Webhooks"). Not behind API-key
 * authentication: the one {@code Stripe-Signature} header, read by
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

	/**
	 * A Charge with some or all of its amount refunded; {@code amount_refunded} is
	 * cumulative.
	 */
	private static final String CHARGE_REFUNDED = "charge.refunded";

	private static final Pattern CURRENCY = Pattern.compile("[A-Za-z]{3}");

	private static final Set<String> PAYMENT_INTENT_EVENTS = Set.of("payment_intent.succeeded",
			"payment_intent.payment_failed");

	private static final Set<String> REFUND_EVENTS = Set.of("refund.created", "refund.updated", "refund.failed",
			"charge.refund.updated");

	/** How soon a delivery answered 503 may come again. */
	private static final Duration PROVIDER_RETRY = Duration.ofMinutes(1);

	private final ProviderEvents webhooks;

	private final StripePaymentGateway gateway;

	private final StripeProperties properties;

	private final Clock clock;

	/** The secret key's mode: events of the other one are ignored. */
	/** Reads the signed body once more for its {@code livemode} alone. */
	private static final ObjectMapper EVENT_READER = JsonMapper.builder().build();

	private final StripeMode mode;

	StripeWebhookController(ProviderEvents webhooks, StripePaymentGateway gateway, StripeProperties properties,
			Clock clock) {
		this.webhooks = webhooks;
		this.gateway = gateway;
		this.properties = properties;
		this.clock = clock;
		this.mode = properties.mode();
		log.info("Stripe webhooks: applying {}-mode events only", this.mode.name().toLowerCase(java.util.Locale.ROOT));
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
		WebhookEffect effect = this.webhooks.apply(translate(event, livemode(bytes)));
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

	/**
	 * The event in the payment module's terms; no Stripe type leaves this package.
	 * @param livemode the body's {@code livemode} if it is a JSON boolean, else
	 * {@code null}
	 */
	private WebhookEvent translate(Event event, @Nullable Boolean livemode) {
		WebhookEvent.Subject subject;
		if (livemode == null || livemode != this.mode.livemode()) {
			// docs/design.md section 10: an event of the other mode never settles
			// anything here, whatever its object names.
			subject = new WebhookEvent.Subject.OtherMode();
		}
		else if (PAYMENT_INTENT_EVENTS.contains(event.getType())) {
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
			if (refundId != null) {
				subject = new WebhookEvent.Subject.OfRefund(new RefundId(refundId),
						finalOutcome(StripeOutcomes.of(refund)),
						new WebhookEvent.ProviderObject(refund.getId(),
								StripeAmounts.toMinorUnits(refund.getAmount(), refund.getCurrency()),
								refund.getCurrency()));
			}
			else {
				// Made outside Payonce: in the Dashboard, or by the API without
				// Payonce's refund id.
				Optional<WebhookEvent.ProviderRefund> outside = providerRefund(refund);
				subject = (outside.isPresent() && refund.getPaymentIntent() != null)
						? new WebhookEvent.Subject.OfProviderRefunds(refund.getPaymentIntent(), List.of(outside.get()),
								null)
						: new WebhookEvent.Subject.Unrelated();
			}
		}
		else if (CHARGE_REFUNDED.equals(event.getType())) {
			Charge charge = dataObject(event, Charge.class).orElseThrow(StripeWebhookController::notAnEvent);
			subject = (charge.getPaymentIntent() != null)
					? new WebhookEvent.Subject.OfProviderRefunds(charge.getPaymentIntent(),
							refundsOutsidePayonce(charge.getPaymentIntent(), charge),
							StripeAmounts.toMinorUnits(charge.getAmountRefunded(), charge.getCurrency()))
					: new WebhookEvent.Subject.Unrelated();
		}
		else {
			subject = new WebhookEvent.Subject.Unrelated();
		}
		return new WebhookEvent("stripe", event.getId(), event.getType(), subject);
	}

	/**
	 * The refunds of a charge that Payonce did not make. Since API version 2022-11-15 a
	 * Charge no longer includes {@code refunds} unless expanded
	 * (https://docs.stripe.com/upgrades#2022-11-15), so for a {@code charge.refunded}
	 * without them the PaymentIntent's refunds are listed at Stripe (a list reads
	 * Stripe's own writes); if Stripe cannot be read the event is answered 503 and Stripe
	 * delivers it again.
	 */
	private List<WebhookEvent.ProviderRefund> refundsOutsidePayonce(String paymentIntent, Charge charge) {
		List<Refund> refunds = (charge.getRefunds() != null && charge.getRefunds().getData() != null)
				? charge.getRefunds().getData()
				: this.gateway.refundsOf(paymentIntent)
					.orElseThrow(() -> new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, "webhook-provider-unavailable",
							"Provider unavailable",
							"The charge's refunds could not be read from Stripe; nothing was recorded. "
									+ "Deliver the event again later.")
						.retryAfter(PROVIDER_RETRY));
		return refunds.stream()
			.filter((refund) -> payonceId(refund.getMetadata(), StripePaymentGateway.REFUND_ID_METADATA) == null)
			.filter((refund) -> paymentIntent.equals(refund.getPaymentIntent()))
			.flatMap((refund) -> providerRefund(refund).stream())
			.toList();
	}

	/**
	 * A Refund in the payment module's terms, by its documented status
	 * (https://docs.stripe.com/api/refunds/object#refund_object-status); empty if it
	 * lacks an id, a positive amount, a currency or a known status.
	 */
	private static Optional<WebhookEvent.ProviderRefund> providerRefund(Refund refund) {
		String id = refund.getId();
		// Stripe's units to ISO 4217 minor units (StripeAmounts): null when not whole.
		Long amount = StripeAmounts.toMinorUnits(refund.getAmount(), refund.getCurrency());
		String currency = refund.getCurrency();
		WebhookEvent.ProviderRefundStatus status = switch (String.valueOf(refund.getStatus())) {
			case "pending", "requires_action" -> WebhookEvent.ProviderRefundStatus.PENDING;
			case "succeeded" -> WebhookEvent.ProviderRefundStatus.SUCCEEDED;
			case "failed", "canceled" -> WebhookEvent.ProviderRefundStatus.FAILED;
			default -> null;
		};
		if (id == null || id.isBlank() || id.length() > 255 || amount == null || amount < 1 || currency == null
				|| !CURRENCY.matcher(currency).matches() || status == null) {
			return Optional.empty();
		}
		return Optional.of(new WebhookEvent.ProviderRefund(id, amount, currency, status));
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
