package io.payonce.client;

import java.util.Objects;
import java.util.Optional;

/**
 * How {@link Refunds#create(PaymentId, IdempotencyKey, RefundRequest)} ended, for an
 * exhaustive {@code switch}: {@link Refunded}, {@link Declined}, {@link Failed},
 * {@link NotRefundable}, {@link ExceedsRefundable} or {@link OutcomeUnknown}. The two
 * refusals store nothing on the service (docs/design.md section 8): the same key may be
 * sent again later and be judged afresh.
 */
public sealed interface RefundOutcome permits RefundOutcome.Refunded, RefundOutcome.Declined, RefundOutcome.Failed,
		RefundOutcome.NotRefundable, RefundOutcome.ExceedsRefundable, OutcomeUnknown {

	/**
	 * {@code 201}: the provider refunded.
	 *
	 * @param refund the refund's receipt
	 * @param replayed whether this is the stored answer of an earlier attempt or call
	 * @param requestId the service's {@code Request-Id} of this answer
	 */
	record Refunded(Refund refund, boolean replayed, String requestId) implements RefundOutcome {

		/** Checks the refund is present. */
		public Refunded {
			Objects.requireNonNull(refund, "refund");
		}

	}

	/**
	 * {@code 402 refund-declined}: the provider declined the refund or refused it for
	 * good; the amount is refundable again.
	 *
	 * @param refundId the declined refund
	 * @param declineCode the provider's reason, or empty
	 * @param replayed whether this is a stored answer
	 * @param problem the whole problem
	 */
	record Declined(RefundId refundId, Optional<String> declineCode, boolean replayed,
			Problem problem) implements RefundOutcome {

	}

	/**
	 * {@code 402 refund-failed}: the reconciler gave up and the provider never saw the
	 * refund; the amount is refundable again.
	 *
	 * @param refundId the failed refund
	 * @param replayed whether this is a stored answer
	 * @param problem the whole problem
	 */
	record Failed(RefundId refundId, boolean replayed, Problem problem) implements RefundOutcome {

	}

	/**
	 * {@code 409 payment-not-refundable}: the payment is not {@code SUCCEEDED}.
	 *
	 * @param paymentStatus the payment's status
	 * @param problem the whole problem
	 */
	record NotRefundable(Status paymentStatus, Problem problem) implements RefundOutcome {

	}

	/**
	 * {@code 409 refund-exceeds-refundable}: more than the payment has left; nothing was
	 * refunded.
	 *
	 * @param refundableAmount minor units the payment has left to refund now
	 * @param problem the whole problem
	 */
	record ExceedsRefundable(long refundableAmount, Problem problem) implements RefundOutcome {

	}

}
