package dev.payonce.payment.web;

import java.time.Duration;
import java.util.List;

import org.springframework.http.HttpStatus;

import dev.payonce.payment.PaymentId;
import dev.payonce.web.ApiProblem;

/**
 * The problems of the payments API (DESIGN.md section 2), each with its stable type slug.
 */
final class PaymentProblems {

	private PaymentProblems() {
	}

	static ApiProblem keyMissing() {
		return new ApiProblem(HttpStatus.BAD_REQUEST, "idempotency-key-missing", "Idempotency-Key missing",
				"POST /payments requires an Idempotency-Key header naming this operation.");
	}

	static ApiProblem keyInvalid(String why) {
		return new ApiProblem(HttpStatus.BAD_REQUEST, "idempotency-key-invalid", "Idempotency-Key invalid",
				"The Idempotency-Key header must be 1-255 visible ASCII characters, bare or as an RFC 8941 string: "
						+ why + ".");
	}

	static ApiProblem invalidRequest(List<FieldError> errors) {
		return new ApiProblem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
				"The request body breaks the payments contract; see errors.")
			.with("errors", errors);
	}

	static ApiProblem payloadTooLarge(int limit) {
		return new ApiProblem(HttpStatus.CONTENT_TOO_LARGE, "payload-too-large", "Payload too large",
				"The request body must be at most " + limit + " bytes.");
	}

	static ApiProblem keyReused() {
		return new ApiProblem(HttpStatus.UNPROCESSABLE_CONTENT, "idempotency-key-reused", "Idempotency-Key reused",
				"This Idempotency-Key was already used with a different request. Use a new key for a new payment.");
	}

	static ApiProblem inProgress(Duration retryAfter) {
		return new ApiProblem(HttpStatus.CONFLICT, "idempotency-request-in-progress", "Request in progress",
				"A request with this Idempotency-Key is still being processed. Retry after the Retry-After interval.")
			.retryAfter(retryAfter);
	}

	static ApiProblem providerUnavailable(PaymentId paymentId, Duration retryAfter) {
		return new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, "payment-provider-unavailable",
				"Payment provider unavailable",
				"The payment provider could not take the payment; nothing was charged. Retrying with the same Idempotency-Key is safe.")
			.with("paymentId", paymentId.toString())
			.retryAfter(retryAfter);
	}

	static ApiProblem outcomeUnknown(PaymentId paymentId, Duration retryAfter) {
		return new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, "payment-outcome-unknown", "Payment outcome unknown",
				"The payment provider did not confirm the outcome. Retrying with the same Idempotency-Key is safe and resolves it without a second charge.")
			.with("paymentId", paymentId.toString())
			.retryAfter(retryAfter);
	}

	static ApiProblem quotaExceeded(Duration retryAfter) {
		return new ApiProblem(HttpStatus.TOO_MANY_REQUESTS, "idempotency-quota-exceeded", "Too many live keys",
				"This client holds the most live Idempotency-Keys allowed; a new key is accepted once older stored "
						+ "responses expire (Retry-After). Retries of existing keys still work.")
			.retryAfter(retryAfter);
	}

	static ApiProblem notFound() {
		return new ApiProblem(HttpStatus.NOT_FOUND, "payment-not-found", "Payment not found",
				"No payment with this id exists for this client.");
	}

}
