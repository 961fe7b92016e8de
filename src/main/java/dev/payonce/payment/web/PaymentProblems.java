package dev.payonce.payment.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.springframework.http.HttpStatus;

import dev.payonce.provider.AmountLimits;
import dev.payonce.provider.Money;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.payment.PaymentId;
import dev.payonce.web.ApiProblem;

/**
 * The problems of the payments API, and those the refunds API shares with it
 * (docs/design.md sections 2 and 8), each with its stable type slug; the idempotency
 * problems are the engine's ({@link dev.payonce.idempotency.web.IdempotencyProblems}).
 */
public final class PaymentProblems {

	/**
	 * The most field errors one answer lists: a body of 1,800 unknown members must not
	 * become an 89 KB answer.
	 */
	static final int MAX_ERRORS = 20;

	private PaymentProblems() {
	}

	/**
	 * {@code 400 invalid-request} listing at most {@link #MAX_ERRORS} errors: the first
	 * ones in order, the last entry then saying how many more there were.
	 * @param errors every error found, in the order to list them
	 * @return the problem
	 */
	public static ApiProblem invalidRequest(List<FieldError> errors) {
		return new ApiProblem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
				"The request body breaks the payments contract; see errors.")
			.with("errors", capped(errors));
	}

	private static List<FieldError> capped(List<FieldError> errors) {
		List<FieldError> listed = errors;
		if (errors.size() > MAX_ERRORS) {
			listed = new ArrayList<>(errors.subList(0, MAX_ERRORS - 1));
			listed.add(new FieldError("", (errors.size() - MAX_ERRORS + 1) + " more errors not listed"));
		}
		return List.copyOf(listed);
	}

	/**
	 * {@code 400 invalid-request} about query parameters; each {@link FieldError} names
	 * the parameter.
	 */
	public static ApiProblem invalidParameters(List<FieldError> errors) {
		return new ApiProblem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
				"A query parameter breaks the payments contract; see errors.")
			.with("errors", capped(errors));
	}

	/**
	 * {@code 400 amount-not-supported}: the payment provider cannot take this amount in
	 * this currency (docs/design.md section 5, "Amounts at the provider"). Decided before
	 * anything is stored or sent, so nothing was charged or refunded, and a retry with
	 * the same key and a supported amount is accepted.
	 * @param amount the amount asked for
	 * @param limits what the provider takes in its currency
	 * @param refund whether a refund (else a payment) was asked for
	 * @return the problem, with {@code currency}, {@code amount}, {@code multipleOf} and
	 * {@code maximumAmount}
	 */
	public static ApiProblem amountNotSupported(Money amount, AmountLimits limits, boolean refund) {
		String currency = amount.currency().getCurrencyCode();
		return new ApiProblem(HttpStatus.BAD_REQUEST, "amount-not-supported", "Amount not supported by the provider",
				"The payment provider cannot " + (refund ? "refund " : "charge ") + amount.minorUnits()
						+ " minor units of " + currency + ": it takes multiples of " + limits.multipleOf() + " up to "
						+ limits.maximum() + ". Nothing was stored or " + (refund ? "refunded" : "charged")
						+ "; retrying with the same Idempotency-Key and a supported amount is safe.")
			.with("currency", currency)
			.with("amount", amount.minorUnits())
			.with("multipleOf", limits.multipleOf())
			.with("maximumAmount", limits.maximum());
	}

	/**
	 * {@code 403 api-key-mode-mismatch}: the client's API key is of the other mode than
	 * the provider's (docs/design.md section 5, "One mode per adapter"). Decided before
	 * anything is stored or sent.
	 * @param keyMode the mode of the request's API key
	 * @param providerMode the one mode the provider moves money in
	 * @return the problem, with {@code keyMode} and {@code providerMode} ({@code test} or
	 * {@code live})
	 */
	public static ApiProblem keyModeMismatch(PaymentGateway.Mode keyMode, PaymentGateway.Mode providerMode) {
		String key = keyMode.name().toLowerCase(Locale.ROOT);
		String provider = providerMode.name().toLowerCase(Locale.ROOT);
		return new ApiProblem(HttpStatus.FORBIDDEN, "api-key-mode-mismatch", "API key of the other mode",
				"This request used a " + key + " API key (sk_" + key + "_); the payment provider here runs in "
						+ provider + " mode and takes sk_" + provider
						+ "_ keys only. Nothing was stored, charged or refunded.")
			.with("keyMode", key)
			.with("providerMode", provider);
	}

	/**
	 * {@code 413 payload-too-large}.
	 * @param limit the most bytes a body may have
	 * @return the problem
	 */
	public static ApiProblem payloadTooLarge(int limit) {
		return new ApiProblem(HttpStatus.CONTENT_TOO_LARGE, "payload-too-large", "Payload too large",
				"The request body must be at most " + limit + " bytes.");
	}

	static ApiProblem providerUnavailable(PaymentId paymentId, Duration retryAfter) {
		return unresolved("payment-provider-unavailable", "Payment provider unavailable",
				"The payment provider refused this attempt before processing it. Retrying with the same Idempotency-Key is safe and resolves the payment without a second charge.",
				"paymentId", paymentId.toString(), retryAfter);
	}

	static ApiProblem outcomeUnknown(PaymentId paymentId, Duration retryAfter) {
		return unresolved("payment-outcome-unknown", "Payment outcome unknown",
				"The payment provider did not confirm the outcome. Retrying with the same Idempotency-Key is safe and resolves it without a second charge.",
				"paymentId", paymentId.toString(), retryAfter);
	}

	/**
	 * {@code 503}: an operation's provider call was refused or its outcome is unknown;
	 * the resource stays {@code PENDING} and a retry with the same key resolves it
	 * (docs/design.md section 4, step 3).
	 * @param slug the problem type's slug
	 * @param title the problem's title
	 * @param detail what happened and that a retry is safe
	 * @param idMember the member naming the resource ({@code paymentId},
	 * {@code refundId})
	 * @param id the resource's id
	 * @param retryAfter when to retry
	 * @return the problem, with the id member and {@code Retry-After}
	 */
	public static ApiProblem unresolved(String slug, String title, String detail, String idMember, String id,
			Duration retryAfter) {
		return new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, slug, title, detail).with(idMember, id)
			.retryAfter(retryAfter);
	}

	/**
	 * {@code 404 payment-not-found}: no payment with this id for this client.
	 * @return the problem
	 */
	public static ApiProblem notFound() {
		return new ApiProblem(HttpStatus.NOT_FOUND, "payment-not-found", "Payment not found",
				"No payment with this id exists for this client.");
	}

}
