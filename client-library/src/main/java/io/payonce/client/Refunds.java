package io.payonce.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The refunds API: {@code POST /payments/{id}/refunds}, its list and its reads.
 * Thread-safe.
 */
public final class Refunds {

	/** The most refunds one page holds (the service's bound). */
	public static final int MAX_PAGE_SIZE = 100;

	private final Calls calls;

	Refunds(Calls calls) {
		this.calls = calls;
	}

	/**
	 * Refunds once per key, retrying as {@link Payments#create} does.
	 * @param paymentId the payment to refund
	 * @param key the key of this refund, stored before this call and used again by every
	 * later call for it
	 * @param request how much, and why
	 * @return {@link RefundOutcome.Refunded}, {@link RefundOutcome.Declined},
	 * {@link RefundOutcome.Failed}, {@link RefundOutcome.NotRefundable},
	 * {@link RefundOutcome.ExceedsRefundable}, or {@link OutcomeUnknown}
	 * @throws NotFoundException if the caller has no such payment
	 * @throws ProblemException for the other final problems, in the subclasses that
	 * {@link Payments#create} lists
	 * @throws UnexpectedAnswerException for an answer the API document does not describe
	 */
	public RefundOutcome create(PaymentId paymentId, IdempotencyKey key, RefundRequest request) {
		Objects.requireNonNull(paymentId, "paymentId");
		Objects.requireNonNull(key, "key");
		Objects.requireNonNull(request, "request");
		ApiRequest post = new ApiRequest("createRefund", "POST", "payments/" + paymentId + "/refunds",
				Json.refundRequest(request), key);
		return switch (this.calls.run(post)) {
			case RetryLoop.CallResult.Answered answered -> answer(paymentId, key, answered);
			case RetryLoop.CallResult.GaveUp gaveUp ->
				unknown(paymentId, key, gaveUp.reason(), gaveUp, gaveUp.attempts(), gaveUp.retryAfter());
		};
	}

	/**
	 * One page of a payment's refunds, oldest first.
	 * @param paymentId the payment
	 * @param limit 1 to {@value #MAX_PAGE_SIZE}
	 * @param startingAfter the last refund of the previous page, or empty for the first
	 * @return the page
	 * @throws NotFoundException if the caller has no such payment
	 * @throws InvalidRequestException if {@code startingAfter} names no refund of it
	 * @throws UnavailableException if no final answer came within the policy
	 */
	public RefundPage list(PaymentId paymentId, int limit, Optional<RefundId> startingAfter) {
		Objects.requireNonNull(paymentId, "paymentId");
		if (limit < 1 || limit > MAX_PAGE_SIZE) {
			throw new IllegalArgumentException("limit is 1 to " + MAX_PAGE_SIZE + ", got " + limit);
		}
		String query = "?limit=" + limit + startingAfter.map((id) -> "&starting_after=" + id).orElse("");
		return this.calls.read(
				new ApiRequest("listRefunds", "GET", "payments/" + paymentId + "/refunds" + query, null, null),
				Json::refundPage);
	}

	/**
	 * Every refund of a payment, reading page after page of {@value #MAX_PAGE_SIZE}.
	 * @param paymentId the payment
	 * @return its refunds, oldest first
	 * @throws NotFoundException if the caller has no such payment
	 * @throws UnavailableException if a page got no final answer
	 */
	public List<Refund> listAll(PaymentId paymentId) {
		List<Refund> all = new ArrayList<>();
		Optional<RefundId> after = Optional.empty();
		RefundPage page;
		do {
			page = list(paymentId, MAX_PAGE_SIZE, after);
			all.addAll(page.refunds());
			after = page.refunds().isEmpty() ? after : Optional.of(page.refunds().getLast().id());
		}
		while (page.hasMore() && !page.refunds().isEmpty());
		return all;
	}

	/**
	 * Reads one refund as it is now.
	 * @param paymentId its payment
	 * @param refundId the refund
	 * @return its receipt
	 * @throws NotFoundException if the caller has no such refund of that payment
	 * @throws UnavailableException if no final answer came within the policy
	 */
	public Refund get(PaymentId paymentId, RefundId refundId) {
		Objects.requireNonNull(paymentId, "paymentId");
		Objects.requireNonNull(refundId, "refundId");
		return this.calls.read(
				new ApiRequest("getRefund", "GET", "payments/" + paymentId + "/refunds/" + refundId, null, null),
				Json::refund);
	}

	private static RefundOutcome answer(PaymentId paymentId, IdempotencyKey key,
			RetryLoop.CallResult.Answered answered) {
		ApiResponse response = answered.response();
		if (response.status() == 201) {
			return new RefundOutcome.Refunded(Json.refund(response.body()), response.replayed(), response.requestId());
		}
		if (response.status() >= 500) {
			return unknown(paymentId, key, OutcomeUnknown.Reason.SERVER_ERROR, answered, answered.attempts(),
					Optional.empty());
		}
		Optional<Problem> answeredProblem = Json.problem(response);
		if (answeredProblem.isPresent()) {
			Problem problem = answeredProblem.get();
			Optional<RefundId> refundId = problem.member("refundId").map(RefundId::of);
			switch (problem.slug()) {
				case "refund-declined" -> {
					if (refundId.isPresent()) {
						return new RefundOutcome.Declined(refundId.get(), problem.member("declineCode"),
								response.replayed(), problem);
					}
				}
				case "refund-failed" -> {
					if (refundId.isPresent()) {
						return new RefundOutcome.Failed(refundId.get(), response.replayed(), problem);
					}
				}
				case "payment-not-refundable" -> {
					return new RefundOutcome.NotRefundable(Status.of(problem.member("paymentStatus").orElse("")),
							problem);
				}
				case "refund-exceeds-refundable" -> {
					Optional<String> refundable = problem.member("refundableAmount");
					if (refundable.isPresent()) {
						return new RefundOutcome.ExceedsRefundable(Long.parseLong(refundable.get()), problem);
					}
				}
				default -> {
					// Not an outcome of a refund: thrown below.
				}
			}
		}
		throw Calls.problem(response);
	}

	private static OutcomeUnknown unknown(PaymentId paymentId, IdempotencyKey key, OutcomeUnknown.Reason reason,
			RetryLoop.CallResult result, int attempts, Optional<Duration> retryAfter) {
		return new OutcomeUnknown(key, Optional.of(paymentId), result.named("refundId").map(RefundId::of), reason,
				attempts, retryAfter);
	}

}
