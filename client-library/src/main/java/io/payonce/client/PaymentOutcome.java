package io.payonce.client;

import java.util.Objects;
import java.util.Optional;

/**
 * How {@link Payments#create(IdempotencyKey, PaymentRequest)} ended: one of
 * {@link Approved}, {@link Declined}, {@link Failed} or {@link OutcomeUnknown}, for an
 * exhaustive {@code switch}. Answers that say the request itself is wrong are thrown
 * ({@link ProblemException}), since no retry can change them.
 */
public sealed interface PaymentOutcome
		permits PaymentOutcome.Approved, PaymentOutcome.Declined, PaymentOutcome.Failed, OutcomeUnknown {

	/**
	 * {@code 201}: the provider charged.
	 *
	 * @param payment the receipt (as it was when the payment completed, if replayed)
	 * @param replayed whether this is the stored answer of an earlier attempt or call
	 * with the key ({@code Idempotent-Replayed: true})
	 * @param requestId the service's {@code Request-Id} of this answer
	 */
	record Approved(Payment payment, boolean replayed, String requestId) implements PaymentOutcome {

		/** Checks the payment is present. */
		public Approved {
			Objects.requireNonNull(payment, "payment");
		}

	}

	/**
	 * {@code 402 payment-declined}: the provider declined, or refused the request for
	 * good. Final for this key; paying for the order again needs a new key.
	 *
	 * @param paymentId the declined payment
	 * @param declineCode the provider's reason, such as {@code card_declined}, or empty
	 * @param replayed whether this is a stored answer
	 * @param problem the whole problem
	 */
	record Declined(PaymentId paymentId, Optional<String> declineCode, boolean replayed,
			Problem problem) implements PaymentOutcome {

	}

	/**
	 * {@code 402 payment-failed}: nobody retried, the service's reconciler gave up, and
	 * the provider never saw the charge. Nothing was charged; a new attempt needs a new
	 * key.
	 *
	 * @param paymentId the failed payment
	 * @param replayed whether this is a stored answer
	 * @param problem the whole problem
	 */
	record Failed(PaymentId paymentId, boolean replayed, Problem problem) implements PaymentOutcome {

	}

}
