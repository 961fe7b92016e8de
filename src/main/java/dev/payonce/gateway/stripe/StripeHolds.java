package dev.payonce.gateway.stripe;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.PaymentIntent;
import com.stripe.net.RequestOptions;
import com.stripe.param.PaymentIntentCancelParams;
import com.stripe.param.PaymentIntentCaptureParams;
import org.jspecify.annotations.Nullable;

import dev.payonce.provider.CaptureRequest;
import dev.payonce.provider.CaptureSequence;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.Money;
import dev.payonce.provider.VoidRequest;

/**
 * Captures and voids of a manual payment's hold, a PaymentIntent Stripe left in
 * {@code requires_capture}
 * (https://docs.stripe.com/payments/place-a-hold-on-a-payment-method), and their lookups
 * (docs/stripe.md, "Manual capture at Stripe").
 *
 * <ul>
 * <li>A capture is {@code POST /v1/payment_intents/{id}/capture} with
 * {@code amount_to_capture} in Stripe's units ({@link StripeAmounts}) under the capture's
 * own provider idempotency key (https://docs.stripe.com/api/payment_intents/capture).
 * Without multicapture Stripe captures a PaymentIntent once and releases what the capture
 * did not take ({@code final_capture} defaults to true): {@link CaptureSequence#ONCE}.
 * With multicapture (https://docs.stripe.com/payments/multicapture) every capture but the
 * one that takes all that is left is sent with {@code final_capture=false}, and captures
 * go one at a time ({@link CaptureSequence#ONE_AT_A_TIME}), so that each knows what is
 * left.</li>
 * <li>A void is {@code POST /v1/payment_intents/{id}/cancel} under the void's own key; a
 * {@code canceled} PaymentIntent is the void done
 * (https://docs.stripe.com/api/payment_intents/cancel).</li>
 * <li>A lookup retrieves the PaymentIntent ({@code GET /v1/payment_intents/{id}}, which
 * reads Stripe's own writes, unlike Search:
 * https://docs.stripe.com/search#data-freshness) and reads from {@code amount_received}
 * and {@code status} whether the capture or the cancel happened
 * (https://docs.stripe.com/api/payment_intents/object#payment_intent_object-status).
 * Captures of a payment go one at a time at Stripe in both sequences, so the capture took
 * place exactly when {@code amount_received} covers what earlier captures took plus this
 * capture's amount.</li>
 * </ul>
 * A {@code 400 payment_intent_unexpected_state} (the PaymentIntent was captured, canceled
 * or its hold lapsed: https://docs.stripe.com/error-codes) refuses the capture or void
 * for good; an unknown answer never names a provider reference, so a retry sends the same
 * request under the same key (Stripe answers it from what it saved) and a lookup proves a
 * capture absent. Thread-safe.
 */
final class StripeHolds {

	/** Stripe's code for a PaymentIntent in a status the request cannot act on. */
	static final String UNEXPECTED_STATE = "payment_intent_unexpected_state";

	private final StripeClient stripe;

	private final CaptureSequence sequence;

	StripeHolds(StripeClient stripe, CaptureSequence sequence) {
		this.stripe = stripe;
		this.sequence = sequence;
	}

	/** See {@link dev.payonce.provider.PaymentGateway#capture}. */
	GatewayResult capture(CaptureRequest request) {
		Money amount = request.amount();
		if (!StripeAmounts.limits(amount.currency()).allows(amount.minorUnits())) {
			return StripeOutcomes.notSent(amount);
		}
		PaymentIntentCaptureParams.Builder params = PaymentIntentCaptureParams.builder()
			.setAmountToCapture(StripeAmounts.toStripe(amount));
		if (this.sequence == CaptureSequence.ONE_AT_A_TIME && amount.minorUnits() < request.remaining()) {
			// Keep the rest of the hold for the captures to come.
			params.setFinalCapture(false);
		}
		try {
			PaymentIntent intent = this.stripe.v1()
				.paymentIntents()
				.capture(request.chargeReference(), params.build(), key(request.providerIdempotencyKey()));
			return captured(request, intent, true);
		}
		catch (StripeException ex) {
			return refused(ex);
		}
	}

	/** See {@link dev.payonce.provider.PaymentGateway#lookupCapture}. */
	GatewayResult lookupCapture(CaptureRequest request) {
		try {
			return captured(request, retrieve(request.chargeReference()), false);
		}
		catch (StripeException ex) {
			return new GatewayResult.Unknown("stripe retrieve failed: " + ex.getStatusCode() + " " + ex.getCode());
		}
	}

	/** See {@link dev.payonce.provider.PaymentGateway#voidAuthorization}. */
	GatewayResult voidAuthorization(VoidRequest request) {
		try {
			PaymentIntent intent = this.stripe.v1()
				.paymentIntents()
				.cancel(request.chargeReference(), PaymentIntentCancelParams.builder().build(),
						key(request.providerIdempotencyKey()));
			return voided(intent, true);
		}
		catch (StripeException ex) {
			return refused(ex);
		}
	}

	/** See {@link dev.payonce.provider.PaymentGateway#lookupVoid}. */
	GatewayResult lookupVoid(VoidRequest request) {
		try {
			return voided(retrieve(request.chargeReference()), false);
		}
		catch (StripeException ex) {
			return new GatewayResult.Unknown("stripe retrieve failed: " + ex.getStatusCode() + " " + ex.getCode());
		}
	}

	/**
	 * What a PaymentIntent says of a capture: approved once {@code amount_received}
	 * covers what captures before it took (the authorized amount less what was
	 * {@code remaining}) plus its amount. Otherwise: {@code canceled}, or
	 * {@code succeeded} without it (captured once already), is a capture that can no
	 * longer happen; {@code requires_capture} is none yet, which a lookup reports as not
	 * found and an answer to the capture call itself as unknown.
	 */
	private static GatewayResult captured(CaptureRequest request, PaymentIntent intent, boolean answer) {
		String status = String.valueOf(intent.getStatus());
		Long authorized = StripeAmounts.toMinorUnits(intent.getAmount(), intent.getCurrency());
		Long received = StripeAmounts.toMinorUnits(intent.getAmountReceived(), intent.getCurrency());
		if (authorized == null || received == null) {
			return new GatewayResult.Unknown("PaymentIntent without readable amounts");
		}
		long capturedBefore = authorized - request.remaining();
		if (received >= capturedBefore + request.amount().minorUnits()) {
			return new GatewayResult.Approved(reference(intent));
		}
		return switch (status) {
			case "canceled", "succeeded" -> new GatewayResult.Declined(intent.getId(), UNEXPECTED_STATE);
			case "requires_capture" -> answer ? new GatewayResult.Unknown("PaymentIntent not captured by the answer")
					: new GatewayResult.NotAttempted("the PaymentIntent holds no capture of this amount");
			default -> new GatewayResult.Unknown("PaymentIntent " + status);
		};
	}

	/**
	 * What a PaymentIntent says of a void: {@code canceled} is done; {@code succeeded}
	 * (captured) can no longer be voided; {@code requires_capture} is none yet.
	 */
	private static GatewayResult voided(PaymentIntent intent, boolean answer) {
		return switch (String.valueOf(intent.getStatus())) {
			case "canceled" -> new GatewayResult.Approved(intent.getId());
			case "succeeded" -> new GatewayResult.Declined(intent.getId(), UNEXPECTED_STATE);
			case "requires_capture" -> answer ? new GatewayResult.Unknown("PaymentIntent not canceled by the answer")
					: new GatewayResult.NotAttempted("the PaymentIntent is not canceled");
			default -> new GatewayResult.Unknown("PaymentIntent " + intent.getStatus());
		};
	}

	/**
	 * A failed capture or cancel: Stripe's errors mean what they mean for a refund
	 * ({@link StripeOutcomes#ofRefund}: an unknown outcome names no provider reference),
	 * and {@code payment_intent_unexpected_state} refuses it for good.
	 */
	private static GatewayResult refused(StripeException failure) {
		if (Integer.valueOf(400).equals(failure.getStatusCode()) && UNEXPECTED_STATE.equals(failure.getCode())) {
			return new GatewayResult.Declined("none", UNEXPECTED_STATE);
		}
		return StripeOutcomes.ofRefund(failure);
	}

	/** The Charge the capture took money from, else the PaymentIntent. */
	private static String reference(PaymentIntent intent) {
		@Nullable String charge = intent.getLatestCharge();
		return (charge != null && !charge.isBlank()) ? charge : intent.getId();
	}

	private PaymentIntent retrieve(String intentId) throws StripeException {
		return this.stripe.v1().paymentIntents().retrieve(intentId);
	}

	private static RequestOptions key(String providerIdempotencyKey) {
		return RequestOptions.builder().setIdempotencyKey(providerIdempotencyKey).build();
	}

}
