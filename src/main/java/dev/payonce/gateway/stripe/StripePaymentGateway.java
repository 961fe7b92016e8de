package dev.payonce.gateway.stripe;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.PaymentIntent;
import com.stripe.model.Refund;
import com.stripe.model.StripeCollection;
import com.stripe.net.RequestOptions;
import com.stripe.param.PaymentIntentCreateParams;
import com.stripe.param.PaymentIntentCreateParams.AutomaticPaymentMethods;
import com.stripe.param.PaymentIntentSearchParams;
import com.stripe.param.RefundCreateParams;
import com.stripe.param.RefundListParams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

import dev.payonce.payment.ChargeRequest;
import dev.payonce.payment.GatewayResult;
import dev.payonce.payment.PaymentGateway;
import dev.payonce.payment.RefundReason;
import dev.payonce.payment.RefundRequest;

/**
 * Charges through Stripe's PaymentIntents API, active with
 * {@code payonce.gateway.provider=stripe}.
 *
 * <p>
 * A charge is one {@code POST /v1/payment_intents} with {@code confirm=true}, the payment
 * method, the amount in minor units and the currency, {@code error_on_requires_action} (a
 * server cannot authenticate for the customer) and no redirects; the payment's provider
 * idempotency key goes in the request options and its payment id in
 * {@code metadata[payonce_payment_id]}. Stripe saves the first answer to a key once the
 * endpoint began executing, including a 500, and replays it for 24 hours; so
 * stripe-java's own network retries are off ({@code maxNetworkRetries=0}): every retry is
 * the engine's, under a lease, and the worst-case call is one request. Answers map as
 * {@link StripeOutcomes} states.
 *
 * <p>
 * A lookup of a payment whose PaymentIntent Stripe already named (its provider reference,
 * kept while the payment is pending) retrieves it by id, which is consistent. Otherwise
 * it searches PaymentIntents by {@code metadata['payonce_payment_id']}, which finds the
 * charge whatever provider key generation made it. Search is eventually consistent, so an
 * empty result is proof only {@link #lookupSettleTime()} after the last create call that
 * could have made one (docs/design.md section 5). Any failure of a lookup is
 * {@link GatewayResult.Unknown}, never "not found".
 *
 * <p>
 * A refund is one {@code POST /v1/refunds} of the payment's PaymentIntent, with the
 * amount in minor units and the client's reason, under the refund's own provider
 * idempotency key (derived from the refund id) and with its refund id in
 * {@code metadata[payonce_refund_id]}; Stripe's errors map as for charges. A refund
 * lookup lists the PaymentIntent's refunds (a list, not a search: it reads Stripe's own
 * writes, so no settle time) and finds the one carrying the refund id. Thread-safe.
 */
@Component
@ConditionalOnProperty(name = "payonce.gateway.provider", havingValue = "stripe")
class StripePaymentGateway implements PaymentGateway {

	/** Stripe prunes idempotency keys once they are at least 24 hours old. */
	static final Duration KEY_RETENTION = Duration.ofHours(24);

	/** The metadata key that carries Payonce's payment id on every PaymentIntent. */
	static final String PAYMENT_ID_METADATA = "payonce_payment_id";

	/** The metadata key that carries Payonce's refund id on every Refund. */
	static final String REFUND_ID_METADATA = "payonce_refund_id";

	/** The most refunds one lookup reads of a PaymentIntent (Stripe's page limit). */
	private static final long REFUND_PAGE = 100;

	private static final Logger log = LoggerFactory.getLogger(StripePaymentGateway.class);

	private final StripeClient stripe;

	private final StripeProperties properties;

	StripePaymentGateway(StripeProperties properties) {
		this.properties = properties;
		this.stripe = new StripeClient.StripeClientBuilder().setApiKey(properties.requiredSecretKey())
			.setApiBase(properties.apiBase().toString().replaceAll("/+$", ""))
			.setConnectTimeout(Math.toIntExact(properties.connectTimeout().toMillis()))
			.setReadTimeout(Math.toIntExact(properties.readTimeout().toMillis()))
			.setMaxNetworkRetries(0)
			.build();
		// The webhook endpoint needs it too; refuse to start without it, not on the
		// first event.
		properties.requiredWebhookSigningSecret();
	}

	@Override
	public GatewayResult charge(ChargeRequest request) {
		PaymentIntentCreateParams params = PaymentIntentCreateParams.builder()
			.setAmount(request.amount().minorUnits())
			.setCurrency(request.amount().currency().getCurrencyCode().toLowerCase(Locale.ROOT))
			.setPaymentMethod(request.paymentMethod())
			.setConfirm(true)
			.setErrorOnRequiresAction(true)
			.setAutomaticPaymentMethods(AutomaticPaymentMethods.builder()
				.setEnabled(true)
				.setAllowRedirects(AutomaticPaymentMethods.AllowRedirects.NEVER)
				.build())
			.setDescription(request.orderId())
			.putMetadata(PAYMENT_ID_METADATA, request.paymentId().toString())
			.putMetadata("payonce_order_id", request.orderId())
			.build();
		RequestOptions options = RequestOptions.builder().setIdempotencyKey(request.providerIdempotencyKey()).build();
		try {
			return StripeOutcomes.of(this.stripe.v1().paymentIntents().create(params, options));
		}
		catch (StripeException ex) {
			return StripeOutcomes.ofCharge(ex);
		}
	}

	@Override
	public GatewayResult lookup(ChargeRequest request) {
		String known = request.providerReference();
		return (known != null) ? retrieve(known) : search(request);
	}

	/**
	 * Reads a PaymentIntent Stripe already named by id ({@code GET
	 * /v1/payment_intents/{id}}), which is consistent: no settle time. Not found is never
	 * "no charge" here: the id came from Stripe, so it is {@link GatewayResult.Unknown}.
	 */
	private GatewayResult retrieve(String intentId) {
		try {
			return StripeOutcomes.of(this.stripe.v1().paymentIntents().retrieve(intentId));
		}
		catch (StripeException ex) {
			return new GatewayResult.Unknown("stripe retrieve failed: " + ex.getStatusCode() + " " + ex.getCode(),
					intentId, false);
		}
	}

	private GatewayResult search(ChargeRequest request) {
		PaymentIntentSearchParams params = PaymentIntentSearchParams.builder()
			.setQuery("metadata['" + PAYMENT_ID_METADATA + "']:'" + request.paymentId() + "'")
			.setLimit(10L)
			.build();
		List<PaymentIntent> found;
		try {
			found = this.stripe.v1().paymentIntents().search(params).getData();
		}
		catch (StripeException ex) {
			return new GatewayResult.Unknown("stripe search failed: " + ex.getStatusCode() + " " + ex.getCode());
		}
		if (found.isEmpty()) {
			return new GatewayResult.NotAttempted("no PaymentIntent carries this payment id");
		}
		if (found.size() > 1) {
			log.error("Stripe has {} PaymentIntents for payment {}: more than one provider key generation charged",
					found.size(), request.paymentId());
		}
		// A charge that succeeded wins over a failed one: the money moved.
		return found.stream()
			.map(StripeOutcomes::of)
			.min(Comparator.comparingInt(StripePaymentGateway::rank))
			.orElseThrow();
	}

	@Override
	public GatewayResult refund(RefundRequest request) {
		RefundCreateParams.Builder params = RefundCreateParams.builder()
			.setPaymentIntent(request.chargeReference())
			.setAmount(request.amount().minorUnits())
			.putMetadata(REFUND_ID_METADATA, request.refundId().toString());
		RefundReason reason = request.reason();
		if (reason != null) {
			params.setReason(switch (reason) {
				case DUPLICATE -> RefundCreateParams.Reason.DUPLICATE;
				case FRAUDULENT -> RefundCreateParams.Reason.FRAUDULENT;
				case REQUESTED_BY_CUSTOMER -> RefundCreateParams.Reason.REQUESTED_BY_CUSTOMER;
			});
		}
		RequestOptions options = RequestOptions.builder().setIdempotencyKey(request.providerIdempotencyKey()).build();
		try {
			return StripeOutcomes.of(this.stripe.v1().refunds().create(params.build(), options));
		}
		catch (StripeException ex) {
			// Stripe's errors mean the same for a refund as for a charge.
			return StripeOutcomes.ofCharge(ex);
		}
	}

	@Override
	public GatewayResult lookupRefund(RefundRequest request) {
		RefundListParams params = RefundListParams.builder()
			.setPaymentIntent(request.chargeReference())
			.setLimit(REFUND_PAGE)
			.build();
		StripeCollection<Refund> refunds;
		try {
			refunds = this.stripe.v1().refunds().list(params);
		}
		catch (StripeException ex) {
			return new GatewayResult.Unknown("stripe refund list failed: " + ex.getStatusCode() + " " + ex.getCode());
		}
		String refundId = request.refundId().toString();
		List<Refund> found = refunds.getData()
			.stream()
			.filter((refund) -> refund.getMetadata() != null
					&& refundId.equals(refund.getMetadata().get(REFUND_ID_METADATA)))
			.toList();
		if (found.isEmpty()) {
			// More refunds than one page: the one asked for may be on another.
			return Boolean.TRUE.equals(refunds.getHasMore())
					? new GatewayResult.Unknown("more refunds of the PaymentIntent than one page")
					: new GatewayResult.NotAttempted("no refund of the PaymentIntent carries this refund id");
		}
		if (found.size() > 1) {
			log.error("Stripe has {} refunds for refund {}: refunded more than once", found.size(), refundId);
		}
		return StripeOutcomes.of(found.get(0));
	}

	/**
	 * A PaymentIntent's refunds, all of them whoever made them, for the webhook
	 * controller's {@code charge.refunded} (docs/design.md section 10): a list, not a
	 * search, so it reads Stripe's own writes (https://docs.stripe.com/api/refunds/list).
	 * @param paymentIntent the PaymentIntent's id
	 * @return its refunds, up to one page of {@value #REFUND_PAGE}, or empty if Stripe
	 * could not be read
	 */
	Optional<List<Refund>> refundsOf(String paymentIntent) {
		RefundListParams params = RefundListParams.builder()
			.setPaymentIntent(paymentIntent)
			.setLimit(REFUND_PAGE)
			.build();
		try {
			StripeCollection<Refund> refunds = this.stripe.v1().refunds().list(params);
			if (Boolean.TRUE.equals(refunds.getHasMore())) {
				log.warn("PaymentIntent {} has more refunds than one page; the first {} are read", paymentIntent,
						REFUND_PAGE);
			}
			return Optional.of(refunds.getData());
		}
		catch (StripeException ex) {
			log.warn("Stripe refund list failed: {} {}", ex.getStatusCode(), ex.getCode());
			return Optional.empty();
		}
	}

	private static int rank(GatewayResult result) {
		return switch (result) {
			case GatewayResult.Approved approved -> 0;
			case GatewayResult.Unknown unknown -> 1;
			case GatewayResult.Declined declined -> 2;
			case GatewayResult.NotAttempted notAttempted -> 3;
		};
	}

	@Override
	public Duration worstCaseCallDuration() {
		// One request and the HTTP client's own re-send of it (see StripeProperties).
		return this.properties.connectTimeout().plus(this.properties.readTimeout()).multipliedBy(2);
	}

	@Override
	public Duration lookupSettleTime() {
		return this.properties.searchSettleTime();
	}

	@Override
	public boolean replaysFailuresUnderProviderKey() {
		return true;
	}

	@Override
	public Optional<Duration> providerKeyRetention() {
		return Optional.of(KEY_RETENTION);
	}

}
