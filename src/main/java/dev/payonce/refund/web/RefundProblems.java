package dev.payonce.refund.web;

import java.time.Duration;
import java.util.List;

import org.springframework.http.HttpStatus;

import dev.payonce.payment.PaymentStatus;
import dev.payonce.payment.web.FieldError;
import dev.payonce.payment.web.PaymentProblems;
import dev.payonce.refund.RefundId;
import dev.payonce.web.ApiProblem;

/**
 * The problems of the refunds API's own (docs/design.md section 8), each with its stable
 * type slug; those it shares with payments are
 * {@link dev.payonce.payment.web.PaymentProblems}.
 */
final class RefundProblems {

	private RefundProblems() {
	}

	/**
	 * {@code 400 invalid-request}: the list's {@code starting_after} names no refund of
	 * this payment of this client. One answer whether the id is unknown or another
	 * payment's or another client's refund.
	 */
	static ApiProblem unknownCursor() {
		return PaymentProblems.invalidParameters(List.of(new FieldError(RefundListParameters.STARTING_AFTER,
				"names no refund of this payment: pass the id of the last refund of the previous page")));
	}

	static ApiProblem notRefundable(PaymentStatus status) {
		return new ApiProblem(HttpStatus.CONFLICT, "payment-not-refundable", "Payment not refundable",
				"Only captured money can be refunded: of a SUCCEEDED payment, or of a manual payment's captures "
						+ "(AUTHORIZED and partially captured, or VOIDED after its captures); this one is " + status
						+ ".")
			.with("paymentStatus", status.name());
	}

	static ApiProblem refundExceedsRefundable(long refundable) {
		return new ApiProblem(HttpStatus.CONFLICT, "refund-exceeds-refundable", "Refund exceeds refundable amount",
				"The refund asks for more than the payment has left to refund (what it captured, its whole amount "
						+ "unless it is a manual payment, minus refunded and in-flight refunds); nothing was refunded.")
			.with("refundableAmount", refundable);
	}

	static ApiProblem refundProviderUnavailable(RefundId refundId, Duration retryAfter) {
		return PaymentProblems.unresolved("refund-provider-unavailable", "Refund provider unavailable",
				"The payment provider refused this attempt before processing it. Retrying with the same Idempotency-Key is safe and resolves the refund without a second refund.",
				"refundId", refundId.toString(), retryAfter);
	}

	static ApiProblem refundOutcomeUnknown(RefundId refundId, Duration retryAfter) {
		return PaymentProblems.unresolved("refund-outcome-unknown", "Refund outcome unknown",
				"The payment provider did not confirm the refund. Retrying with the same Idempotency-Key is safe and resolves it without a second refund.",
				"refundId", refundId.toString(), retryAfter);
	}

	static ApiProblem refundNotFound() {
		return new ApiProblem(HttpStatus.NOT_FOUND, "refund-not-found", "Refund not found",
				"No refund with this id exists for this payment and client.");
	}

}
