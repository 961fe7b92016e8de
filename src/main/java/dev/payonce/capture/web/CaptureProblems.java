package dev.payonce.capture.web;

import java.time.Duration;

import org.springframework.http.HttpStatus;

import dev.payonce.capture.CaptureId;
import dev.payonce.capture.VoidId;
import dev.payonce.payment.PaymentStatus;
import dev.payonce.payment.web.PaymentProblems;
import dev.payonce.web.ApiProblem;

/**
 * The problems of the captures API's own (docs/design.md section 15), each with its
 * stable type slug; those it shares with payments are
 * {@link dev.payonce.payment.web.PaymentProblems}.
 */
final class CaptureProblems {

	private CaptureProblems() {
	}

	static ApiProblem notCapturable(PaymentStatus status) {
		return new ApiProblem(HttpStatus.CONFLICT, "payment-not-capturable", "Payment not capturable",
				"Only an AUTHORIZED manual payment with no void in flight (nor another capture, at a provider that "
						+ "takes one capture at a time) can be captured; this one is " + status + ".")
			.with("paymentStatus", status.name());
	}

	static ApiProblem authorizationExpired() {
		return new ApiProblem(HttpStatus.CONFLICT, "authorization-expired", "Authorization expired",
				"The provider's hold on this payment has lapsed (authorizationExpiresAt); nothing can be captured.");
	}

	static ApiProblem captureExceedsCapturable(long capturable) {
		return new ApiProblem(HttpStatus.CONFLICT, "capture-exceeds-capturable", "Capture exceeds capturable amount",
				"The capture asks for more than the authorization has left (its amount minus captured and "
						+ "in-flight captures); nothing was captured.")
			.with("capturableAmount", capturable);
	}

	static ApiProblem captureProviderUnavailable(CaptureId captureId, Duration retryAfter) {
		return PaymentProblems.unresolved("capture-provider-unavailable", "Capture provider unavailable",
				"The payment provider refused this attempt before processing it. Retrying with the same "
						+ "Idempotency-Key is safe and resolves the capture without a second capture.",
				"captureId", captureId.toString(), retryAfter);
	}

	static ApiProblem captureOutcomeUnknown(CaptureId captureId, Duration retryAfter) {
		return PaymentProblems
			.unresolved("capture-outcome-unknown", "Capture outcome unknown",
					"The payment provider did not confirm the capture. Retrying with the same Idempotency-Key is safe "
							+ "and resolves it without a second capture.",
					"captureId", captureId.toString(), retryAfter);
	}

	static ApiProblem notVoidable(PaymentStatus status) {
		return new ApiProblem(HttpStatus.CONFLICT, "payment-not-voidable", "Payment not voidable",
				"Only an AUTHORIZED manual payment that no capture or other void holds can be voided; this one is "
						+ status + ".")
			.with("paymentStatus", status.name());
	}

	static ApiProblem voidProviderUnavailable(VoidId voidId, Duration retryAfter) {
		return PaymentProblems
			.unresolved("void-provider-unavailable", "Void provider unavailable",
					"The payment provider refused this attempt before processing it. Retrying with the same "
							+ "Idempotency-Key is safe and resolves the void.",
					"voidId", voidId.toString(), retryAfter);
	}

	static ApiProblem voidOutcomeUnknown(VoidId voidId, Duration retryAfter) {
		return PaymentProblems.unresolved("void-outcome-unknown", "Void outcome unknown",
				"The payment provider did not confirm the void. Retrying with the same Idempotency-Key is safe "
						+ "and resolves it.",
				"voidId", voidId.toString(), retryAfter);
	}

	static ApiProblem captureNotFound() {
		return new ApiProblem(HttpStatus.NOT_FOUND, "capture-not-found", "Capture not found",
				"No capture with this id exists for this payment and client.");
	}

}
