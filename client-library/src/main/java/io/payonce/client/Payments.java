package io.payonce.client;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The payments API: {@code POST /payments} and {@code GET /payments/{id}}. Thread-safe.
 */
public final class Payments {

	private final Calls calls;

	Payments(Calls calls) {
		this.calls = calls;
	}

	/**
	 * Charges once per key: sends the request with the key, retrying under the client's
	 * {@link RetryPolicy} with the same key and the same bytes, and returns the one
	 * outcome the service holds for the key.
	 * @param key the key of this payment, stored with the order before this call; every
	 * later call for the same payment (after an {@link OutcomeUnknown}, or from another
	 * process after a crash) must use it again with the same request
	 * @param request what to charge
	 * @return {@link PaymentOutcome.Approved}, {@link PaymentOutcome.Declined},
	 * {@link PaymentOutcome.Failed}, or {@link OutcomeUnknown} when the call ended
	 * without a final answer (within the policy's deadline)
	 * @throws InvalidRequestException for {@code 400} and the other answers that the
	 * request must change
	 * @throws AuthenticationException for {@code 401}
	 * @throws PermissionException for {@code 403}
	 * @throws IdempotencyKeyReusedException for {@code 422}
	 * @throws ProblemException for any other problem that is final
	 * @throws UnexpectedAnswerException for an answer the API document does not describe
	 */
	public PaymentOutcome create(IdempotencyKey key, PaymentRequest request) {
		Objects.requireNonNull(key, "key");
		Objects.requireNonNull(request, "request");
		ApiRequest post = new ApiRequest("createPayment", "POST", "payments", Json.paymentRequest(request), key);
		return switch (this.calls.run(post)) {
			case RetryLoop.CallResult.Answered answered -> answer(key, answered);
			case RetryLoop.CallResult.GaveUp gaveUp ->
				unknown(key, gaveUp.reason(), gaveUp, gaveUp.attempts(), gaveUp.retryAfter());
		};
	}

	/**
	 * Reads a payment as it is now.
	 * @param id the payment
	 * @return its receipt
	 * @throws NotFoundException if the caller has no such payment
	 * @throws UnavailableException if no final answer came within the policy
	 */
	public Payment get(PaymentId id) {
		Objects.requireNonNull(id, "id");
		return this.calls.read(new ApiRequest("getPayment", "GET", "payments/" + id, null, null), Json::payment);
	}

	private static PaymentOutcome answer(IdempotencyKey key, RetryLoop.CallResult.Answered answered) {
		ApiResponse response = answered.response();
		if (response.status() == 201) {
			return new PaymentOutcome.Approved(Json.payment(response.body()), response.replayed(),
					response.requestId());
		}
		if (response.status() >= 500) {
			// Not retried (a bug, not a retryable condition): whether it charged is
			// unknown.
			return unknown(key, OutcomeUnknown.Reason.SERVER_ERROR, answered, answered.attempts(), Optional.empty());
		}
		Optional<Problem> problem = Json.problem(response);
		if (response.status() == 402 && problem.isPresent()) {
			Problem declined = problem.get();
			Optional<PaymentId> paymentId = declined.member("paymentId").map(PaymentId::of);
			if (paymentId.isPresent() && "payment-declined".equals(declined.slug())) {
				return new PaymentOutcome.Declined(paymentId.get(), declined.member("declineCode"), response.replayed(),
						declined);
			}
			if (paymentId.isPresent() && "payment-failed".equals(declined.slug())) {
				return new PaymentOutcome.Failed(paymentId.get(), response.replayed(), declined);
			}
		}
		throw Calls.problem(response);
	}

	private static OutcomeUnknown unknown(IdempotencyKey key, OutcomeUnknown.Reason reason, RetryLoop.CallResult result,
			int attempts, Optional<Duration> retryAfter) {
		return new OutcomeUnknown(key, result.named("paymentId").map(PaymentId::of), Optional.empty(), reason, attempts,
				retryAfter);
	}

}
