package dev.payonce.gateway.stripe;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.Set;

import com.stripe.exception.ApiConnectionException;
import com.stripe.exception.CardException;
import com.stripe.exception.IdempotencyException;
import com.stripe.exception.InvalidRequestException;
import com.stripe.exception.RateLimitException;
import com.stripe.exception.StripeException;
import com.stripe.model.Charge;
import com.stripe.model.PaymentIntent;
import com.stripe.model.Refund;
import com.stripe.model.StripeError;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.Money;

/**
 * What a Stripe answer means for a charge, as a {@link GatewayResult}. The rules, from
 * Stripe's API reference ("Errors", "Idempotent requests"):
 *
 * <table>
 * <caption>Stripe answer to GatewayResult</caption>
 * <tr>
 * <th>Stripe answer</th>
 * <th>Result</th>
 * <th>Why</th>
 * </tr>
 * <tr>
 * <td>PaymentIntent {@code succeeded}</td>
 * <td>Approved</td>
 * <td>charged</td>
 * </tr>
 * <tr>
 * <td>402 {@code card_error} ({@code decline_code}, else {@code code}); PaymentIntent
 * {@code requires_payment_method} or {@code canceled}</td>
 * <td>Declined</td>
 * <td>final; Stripe saves it under the key</td>
 * </tr>
 * <tr>
 * <td>429 rate limited</td>
 * <td>NotAttempted</td>
 * <td>refused before processing, not saved</td>
 * </tr>
 * <tr>
 * <td>409 ({@code idempotency_key_in_use}, or any other conflict)</td>
 * <td>Unknown</td>
 * <td>another request with the key is executing ("the request conflicted with another
 * that was executing concurrently", https://docs.stripe.com/api/idempotent_requests):
 * this one did nothing, but the one executing may charge a moment later, so the outcome
 * of the payment is not known</td>
 * </tr>
 * <tr>
 * <td>400 whose code is in {@link #PERMANENT_REFUSALS} ({@code amount_too_large},
 * {@code charge_disputed}, ...), or {@code resource_missing} of the
 * {@code payment_method}</td>
 * <td>Declined, with the code as the decline code</td>
 * <td>a refusal of this request that no retry can change
 * (https://docs.stripe.com/error-codes): final, so a refund's reservation is given back
 * at once and a payment never walks through key generations; a 400 is not saved under the
 * key, so nothing executed under it</td>
 * </tr>
 * <tr>
 * <td>400 {@code parameter_missing}, {@code parameter_unknown},
 * {@code parameter_invalid_*}</td>
 * <td>NotAttempted, logged at ERROR</td>
 * <td>Payonce sent a request Stripe's API does not accept: a bug in Payonce</td>
 * </tr>
 * <tr>
 * <td>other 400, 401/403/404 other than {@code idempotency_error}</td>
 * <td>NotAttempted</td>
 * <td>validation, authentication or permission: this request did nothing</td>
 * </tr>
 * <tr>
 * <td>connection refused, unknown host</td>
 * <td>NotAttempted</td>
 * <td>the request was never sent</td>
 * </tr>
 * <tr>
 * <td>timeout, connection reset, any other I/O failure</td>
 * <td>Unknown</td>
 * <td>Stripe may have charged</td>
 * </tr>
 * <tr>
 * <td>5xx</td>
 * <td>Unknown; with {@code Idempotent-Replayed: true}, marked replayed; with the
 * PaymentIntent in the error, carrying its id</td>
 * <td>may have charged; Stripe saves a 500 under the key and replays it; a replay proves
 * the request that executed under the key has ended</td>
 * </tr>
 * <tr>
 * <td>400 {@code idempotency_error}</td>
 * <td>Unknown, logged at ERROR</td>
 * <td>the key was used with other parameters: a bug in Payonce, and the first request's
 * outcome is not known from this answer</td>
 * </tr>
 * <tr>
 * <td>PaymentIntent {@code requires_capture} with {@code capture_method=manual}</td>
 * <td>Approved: the authorization a manual payment asked for</td>
 * <td>https://docs.stripe.com/payments/place-a-hold-on-a-payment-method</td>
 * </tr>
 * <tr>
 * <td>PaymentIntent {@code processing}, {@code requires_capture} of an automatic one,
 * other</td>
 * <td>Unknown, carrying the PaymentIntent's id</td>
 * <td>no final outcome yet; a webhook or reconciliation settles it</td>
 * </tr>
 * </table>
 * Reasons are short internal strings for logs: status, type and code only, never Stripe's
 * message (which can quote the idempotency key).
 */
final class StripeOutcomes {

	private static final Logger log = LoggerFactory.getLogger(StripeOutcomes.class);

	/** The adapter's logger, for what it refuses to send. */
	private static final Logger adapterLog = LoggerFactory.getLogger(StripePaymentGateway.class);

	/** The provider reference of a charge or refund that was never sent. */
	private static final String NO_REFERENCE = "none";

	/** The decline code of an amount Stripe cannot take, never sent to it. */
	static final String AMOUNT_NOT_SUPPORTED = "amount_not_supported";

	/**
	 * Stripe error codes of a 400 that refuse the request itself for good, from Stripe's
	 * error-codes page (https://docs.stripe.com/error-codes): the amount is above the
	 * maximum or below the minimum allowed ({@code amount_too_large},
	 * {@code amount_too_small}, {@code invalid_charge_amount}; for a refund,
	 * {@code amount_too_large} is a refund above what is left of the charge at Stripe),
	 * the charge was already refunded ({@code charge_already_refunded}) or charged back
	 * ({@code charge_disputed}), the payment method was never activated
	 * ({@code payment_method_unactivated}). The same request gets the same answer however
	 * often it is sent.
	 */
	static final Set<String> PERMANENT_REFUSALS = Set.of("amount_too_large", "amount_too_small",
			"invalid_charge_amount", "charge_already_refunded", "charge_disputed", "payment_method_unactivated");

	private StripeOutcomes() {
	}

	/**
	 * The answer to an amount Stripe cannot take, sent nowhere: final, and nothing moved.
	 * Payonce refuses such amounts before it stores anything
	 * ({@link StripePaymentGateway#amountLimits}); this meets only a payment or refund
	 * stored before that check existed, which no retry can change.
	 * @param amount the amount of the charge or refund
	 * @return Declined with {@link #AMOUNT_NOT_SUPPORTED}
	 */
	static GatewayResult notSent(Money amount) {
		return notSentFor(amount);
	}

	private static GatewayResult notSentFor(Money amount) {
		adapterLog.warn("Not sent to Stripe: {} {} minor units is not an amount Stripe takes ({})", amount.currency(),
				amount.minorUnits(), StripeAmounts.CURRENCIES_PAGE);
		return new GatewayResult.Declined(NO_REFERENCE, AMOUNT_NOT_SUPPORTED);
	}

	/**
	 * The outcome a PaymentIntent's status states.
	 * @param intent the PaymentIntent as Stripe returned it
	 * @return Approved, Declined or Unknown
	 */
	static GatewayResult of(PaymentIntent intent) {
		String status = (intent.getStatus() != null) ? intent.getStatus() : "";
		if ("requires_capture".equals(status) && "manual".equals(intent.getCaptureMethod())) {
			// A manual PaymentIntent authorized: the hold is the approval Payonce asked
			// for (https://docs.stripe.com/payments/place-a-hold-on-a-payment-method).
			return new GatewayResult.Approved(intent.getId(), captureBefore(intent));
		}
		return switch (status) {
			case "succeeded" -> new GatewayResult.Approved(intent.getId());
			case "requires_payment_method" ->
				new GatewayResult.Declined(intent.getId(), declineCode(intent.getLastPaymentError(), "payment_failed"));
			case "canceled" -> new GatewayResult.Declined(intent.getId(), "canceled");
			// With error_on_requires_action Stripe fails the payment instead; a server
			// cannot authenticate for the customer.
			case "requires_action" -> new GatewayResult.Declined(intent.getId(), "authentication_required");
			// Stripe named the charge: lookups read it by id from now on.
			default -> new GatewayResult.Unknown("PaymentIntent " + status, intent.getId(), false);
		};
	}

	/**
	 * When the hold of a manual PaymentIntent lapses, as its Charge states it when the
	 * Charge is expanded: {@code payment_method_details.card.capture_before}
	 * (https://docs.stripe.com/api/charges/object#charge_object-payment_method_details-card-capture_before,
	 * https://docs.stripe.com/payments/place-a-hold-on-a-payment-method).
	 */
	private static @Nullable Instant captureBefore(PaymentIntent intent) {
		Charge charge = intent.getLatestChargeObject();
		if (charge == null || charge.getPaymentMethodDetails() == null
				|| charge.getPaymentMethodDetails().getCard() == null
				|| charge.getPaymentMethodDetails().getCard().getCaptureBefore() == null) {
			return null;
		}
		return Instant.ofEpochSecond(charge.getPaymentMethodDetails().getCard().getCaptureBefore());
	}

	/**
	 * The outcome a Refund's status states: {@code succeeded} is Approved; {@code failed}
	 * and {@code canceled} are Declined (the money stays with the merchant);
	 * {@code pending} and {@code requires_action} have no final outcome yet and are
	 * Unknown.
	 * @param refund the Refund as Stripe returned it
	 * @return Approved, Declined or Unknown
	 */
	static GatewayResult of(Refund refund) {
		String status = (refund.getStatus() != null) ? refund.getStatus() : "";
		return switch (status) {
			case "succeeded" -> new GatewayResult.Approved(refund.getId());
			case "failed" -> new GatewayResult.Declined(refund.getId(),
					(refund.getFailureReason() != null) ? refund.getFailureReason() : "refund_failed");
			case "canceled" -> new GatewayResult.Declined(refund.getId(), "canceled");
			default -> new GatewayResult.Unknown("Refund " + status);
		};
	}

	/**
	 * The outcome a failed charge or refund call states.
	 * @param failure what stripe-java threw
	 * @return Declined, NotAttempted or Unknown
	 */
	/**
	 * What a failed refund creation means: Stripe's errors mean the same for a refund as
	 * for a charge ({@link #ofCharge}), but an unknown answer never names a provider
	 * reference. The only object a Stripe error names is a PaymentIntent
	 * (https://docs.stripe.com/api/errors, {@code payment_intent}), which is the refunded
	 * charge, not the refund; kept as the refund's reference it would stop every lookup
	 * from proving the refund absent, so the refund could never be given up
	 * (docs/design.md section 5).
	 * @param failure the exception stripe-java threw
	 * @return the outcome
	 */
	static GatewayResult ofRefund(StripeException failure) {
		GatewayResult result = ofCharge(failure);
		if (result instanceof GatewayResult.Unknown unknown && unknown.providerReference() != null) {
			return new GatewayResult.Unknown(unknown.reason(), null, unknown.replayed());
		}
		return result;
	}

	static GatewayResult ofCharge(StripeException failure) {
		Integer status = failure.getStatusCode();
		String code = (failure.getCode() != null) ? failure.getCode() : "";
		if (failure instanceof CardException card) {
			GatewayResult.Declined declined = declined(card.getStripeError());
			if (card.getStripeError() == null && card.getDeclineCode() != null) {
				return new GatewayResult.Declined((card.getCharge() != null) ? card.getCharge() : NO_REFERENCE,
						card.getDeclineCode());
			}
			return declined;
		}
		if (failure instanceof IdempotencyException) {
			// Only a bug can send other parameters under a payment's provider key.
			log.error("Stripe refused a provider idempotency key reused with other parameters (idempotency_error, "
					+ "request {}): a bug in Payonce; the outcome stays unknown", failure.getRequestId());
			return new GatewayResult.Unknown("stripe 400 idempotency_error");
		}
		if (failure instanceof RateLimitException) {
			return new GatewayResult.NotAttempted("stripe 429 rate limited");
		}
		if (failure instanceof ApiConnectionException) {
			return neverSent(failure) ? new GatewayResult.NotAttempted("stripe unreachable: request not sent")
					: new GatewayResult.Unknown(
							"stripe connection failed after sending: " + rootCause(failure).getClass().getSimpleName());
		}
		if (status == null || status >= 500) {
			return new GatewayResult.Unknown("stripe " + status + " " + code + (replayed(failure) ? " replayed" : ""),
					namedObject(failure.getStripeError()), replayed(failure));
		}
		if (status == 409) {
			// idempotency_key_in_use: this request did nothing, but the one executing
			// under the key may charge; what happened is learned by a retry or lookup.
			return new GatewayResult.Unknown("stripe 409 " + code);
		}
		if (status == 400 && permanent(failure, code)) {
			return new GatewayResult.Declined(NO_REFERENCE, code);
		}
		if (status == 400 && code.startsWith("parameter_")) {
			log.error("Stripe refused a request Payonce built ({} {}, request {}): a bug in Payonce; not attempted",
					status, code, failure.getRequestId());
		}
		return new GatewayResult.NotAttempted("stripe " + status + " " + code);
	}

	/**
	 * Whether a 400 refuses the request for good: a code of {@link #PERMANENT_REFUSALS},
	 * or a payment method that does not exist ({@code resource_missing} of
	 * {@code payment_method}: the client's token names nothing at Stripe).
	 */
	private static boolean permanent(StripeException failure, String code) {
		if (PERMANENT_REFUSALS.contains(code)) {
			return true;
		}
		String param = (failure instanceof InvalidRequestException invalid) ? invalid.getParam() : null;
		if (param == null && failure.getStripeError() != null) {
			param = failure.getStripeError().getParam();
		}
		return "resource_missing".equals(code) && "payment_method".equals(param);
	}

	/**
	 * Whether Stripe answered from what it saved under the idempotency key
	 * ({@code Idempotent-Replayed: true}, Stripe's "Idempotent requests"): the request
	 * under the key that executed has ended, and no later one executes. Unknown without
	 * Stripe's error object (an unreadable body): then {@code false}.
	 */
	static boolean replayed(StripeException failure) {
		StripeError error = failure.getStripeError();
		if (error == null || error.getLastResponse() == null) {
			return false;
		}
		return error.getLastResponse()
			.headers()
			.firstValue("Idempotent-Replayed")
			.map("true"::equalsIgnoreCase)
			.orElse(false);
	}

	/** The PaymentIntent or Refund an error names, if any. */
	private static @Nullable String namedObject(@Nullable StripeError error) {
		if (error != null && error.getPaymentIntent() != null && error.getPaymentIntent().getId() != null) {
			return error.getPaymentIntent().getId();
		}
		return null;
	}

	private static GatewayResult.Declined declined(@Nullable StripeError error) {
		String reference = NO_REFERENCE;
		if (error != null && error.getPaymentIntent() != null && error.getPaymentIntent().getId() != null) {
			reference = error.getPaymentIntent().getId();
		}
		else if (error != null && error.getCharge() != null) {
			reference = error.getCharge();
		}
		return new GatewayResult.Declined(reference, declineCode(error, "card_declined"));
	}

	private static String declineCode(@Nullable StripeError error, String fallback) {
		if (error == null) {
			return fallback;
		}
		if (error.getDeclineCode() != null && !error.getDeclineCode().isBlank()) {
			return error.getDeclineCode();
		}
		return (error.getCode() != null && !error.getCode().isBlank()) ? error.getCode() : fallback;
	}

	/**
	 * A connection that was never made carries nothing to Stripe; anything after it (a
	 * reset, a timeout, even a connect timeout, which cannot be told apart from a read
	 * timeout by type) may have.
	 */
	private static boolean neverSent(StripeException failure) {
		Throwable cause = rootCause(failure);
		return cause instanceof ConnectException || cause instanceof UnknownHostException
				|| cause instanceof NoRouteToHostException;
	}

	private static Throwable rootCause(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		return cause;
	}

}
