package dev.payonce.gateway.stripe;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.PaymentIntent;
import com.stripe.model.Refund;
import com.stripe.model.StripeObject;
import com.stripe.net.RequestOptions;
import com.stripe.param.PaymentIntentCancelParams;
import com.stripe.param.PaymentIntentCreateParams;
import com.stripe.param.PaymentIntentCreateParams.AutomaticPaymentMethods;
import com.stripe.param.PaymentIntentSearchParams;
import com.stripe.param.RefundCreateParams;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.payonce.provider.CaptureMethod;
import dev.payonce.provider.ChargeRequest;
import dev.payonce.provider.ExtraCharge;
import dev.payonce.provider.GatewayResult;

/**
 * Charges as PaymentIntents, and the reversal of a payment's extra ones.
 *
 * <p>
 * A charge is one {@code POST /v1/payment_intents} with {@code confirm=true}, the payment
 * method, the amount in Stripe's units ({@link StripeAmounts}: ISK and UGX in hundredths,
 * three-decimal currencies ending in 0) and the currency,
 * {@code error_on_requires_action} (a server cannot authenticate for the customer) and no
 * redirects; the payment's provider idempotency key goes in the request options and its
 * payment id in {@code metadata[payonce_payment_id]}; a manual payment adds
 * {@code capture_method=manual}. Answers map as {@link StripeOutcomes} states.
 *
 * <p>
 * The safety net against a second charge (docs/design.md section 5, "Extra charges")
 * finds a payment's PaymentIntents by Search and cancels or refunds in full every one but
 * the payment's own ({@link #reverseExtraCharges}). Thread-safe.
 */
final class StripeCharges {

	/** The metadata key that carries Payonce's payment id on every PaymentIntent. */
	static final String PAYMENT_ID_METADATA = "payonce_payment_id";

	/** The adapter's logger, whichever of its parts logs. */
	private static final Logger log = LoggerFactory.getLogger(StripePaymentGateway.class);

	private final StripeClient stripe;

	StripeCharges(StripeClient stripe) {
		this.stripe = stripe;
	}

	/** See {@link dev.payonce.provider.PaymentGateway#charge}. */
	GatewayResult charge(ChargeRequest request) {
		if (!StripeAmounts.limits(request.amount().currency()).allows(request.amount().minorUnits())) {
			return StripeOutcomes.notSent(request.amount());
		}
		PaymentIntentCreateParams.Builder builder = PaymentIntentCreateParams.builder()
			.setAmount(StripeAmounts.toStripe(request.amount()))
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
			.putMetadata("payonce_order_id", request.orderId());
		if (request.captureMethod() == CaptureMethod.MANUAL) {
			// A hold, answered requires_capture
			// (https://docs.stripe.com/payments/place-a-hold-on-a-payment-method); an
			// automatic payment's parameters stay as they were, so its saved requests
			// still match.
			builder.setCaptureMethod(PaymentIntentCreateParams.CaptureMethod.MANUAL)
				// Its Charge says when the hold lapses (capture_before).
				.addExpand("latest_charge");
		}
		PaymentIntentCreateParams params = builder.build();
		RequestOptions options = RequestOptions.builder().setIdempotencyKey(request.providerIdempotencyKey()).build();
		try {
			return StripeOutcomes.of(this.stripe.v1().paymentIntents().create(params, options));
		}
		catch (StripeException ex) {
			return StripeOutcomes.ofCharge(ex);
		}
	}

	/**
	 * Finds the payment's PaymentIntents by Search (eventually consistent, which a safety
	 * net that repeats for as long as Stripe keeps keys tolerates: a PaymentIntent missed
	 * now is found by a later sweep) and reverses every one but {@code kept} that moved
	 * or may move money: {@code succeeded} is refunded in full (reason
	 * {@code duplicate}), one not yet final is canceled
	 * (https://docs.stripe.com/api/payment_intents/cancel), each under the key
	 * {@code payonce-reversal-<PaymentIntent id>}; a replayed answer or
	 * {@code charge_already_refunded} means an earlier sweep reversed it. A declined or
	 * canceled PaymentIntent moved no money and is left alone.
	 */
	Optional<List<ExtraCharge>> reverseExtraCharges(ChargeRequest request, @Nullable String kept) {
		PaymentIntentSearchParams params = PaymentIntentSearchParams.builder()
			.setQuery("metadata['" + PAYMENT_ID_METADATA + "']:'" + request.paymentId() + "'")
			.setLimit(StripeLists.LIST_PAGE)
			.build();
		List<PaymentIntent> found;
		try {
			found = this.stripe.v1().paymentIntents().search(params).getData();
		}
		catch (StripeException ex) {
			log.warn("Payment {}: the sweep for extra charges could not search Stripe ({} {})", request.paymentId(),
					ex.getStatusCode(), ex.getCode());
			return Optional.empty();
		}
		List<ExtraCharge> extras = new ArrayList<>();
		for (PaymentIntent intent : found) {
			String status = (intent.getStatus() != null) ? intent.getStatus() : "";
			if (intent.getId().equals(kept) || status.equals("requires_payment_method") || status.equals("canceled")) {
				continue;
			}
			extras.add(new ExtraCharge(intent.getId(),
					status.equals("succeeded") ? refundInFull(intent, request) : cancel(intent)));
		}
		return Optional.of(extras);
	}

	private ExtraCharge.Reversal refundInFull(PaymentIntent intent, ChargeRequest request) {
		RefundCreateParams params = RefundCreateParams.builder()
			.setPaymentIntent(intent.getId())
			.setReason(RefundCreateParams.Reason.DUPLICATE)
			.putMetadata("payonce_reversal_of", request.paymentId().toString())
			.build();
		try {
			Refund refund = this.stripe.v1().refunds().create(params, reversalKey(intent));
			return replayed(refund) ? ExtraCharge.Reversal.ALREADY_REVERSED : ExtraCharge.Reversal.REFUNDED;
		}
		catch (StripeException ex) {
			return "charge_already_refunded".equals(ex.getCode()) ? ExtraCharge.Reversal.ALREADY_REVERSED
					: ExtraCharge.Reversal.NOT_REVERSED;
		}
	}

	private ExtraCharge.Reversal cancel(PaymentIntent intent) {
		PaymentIntentCancelParams params = PaymentIntentCancelParams.builder()
			.setCancellationReason(PaymentIntentCancelParams.CancellationReason.DUPLICATE)
			.build();
		try {
			PaymentIntent canceled = this.stripe.v1()
				.paymentIntents()
				.cancel(intent.getId(), params, reversalKey(intent));
			return replayed(canceled) ? ExtraCharge.Reversal.ALREADY_REVERSED : ExtraCharge.Reversal.CANCELED;
		}
		catch (StripeException ex) {
			// processing cannot always be canceled; once it succeeds a later sweep
			// refunds it.
			return ExtraCharge.Reversal.NOT_REVERSED;
		}
	}

	private static RequestOptions reversalKey(PaymentIntent intent) {
		return RequestOptions.builder().setIdempotencyKey("payonce-reversal-" + intent.getId()).build();
	}

	private static boolean replayed(StripeObject answer) {
		return answer.getLastResponse() != null && answer.getLastResponse()
			.headers()
			.firstValue("Idempotent-Replayed")
			.map("true"::equalsIgnoreCase)
			.orElse(false);
	}

}
