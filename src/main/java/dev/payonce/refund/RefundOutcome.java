package dev.payonce.refund;

import java.time.Duration;

import dev.payonce.idempotency.StoredResponse;
import dev.payonce.payment.PaymentStatus;
import dev.payonce.provider.AmountLimits;
import dev.payonce.provider.Money;

/**
 * What {@link RefundService#refund} decided, for the HTTP layer to render (docs/design.md
 * section 8). Refusals are decided in the claim transaction and store nothing: a later
 * request with the same key is judged afresh.
 */
public sealed interface RefundOutcome {

	/**
	 * A final answer (201 refunded, 402 declined or failed), the same bytes for the first
	 * request and every replay.
	 *
	 * @param response the stored response
	 * @param replayed {@code true} when an earlier request stored it
	 */
	record Completed(StoredResponse response, boolean replayed) implements RefundOutcome {
	}

	/** The key was used with a different request or for another operation: 422. */
	record KeyReused() implements RefundOutcome {
	}

	/**
	 * Another request with the key is still running: 409.
	 *
	 * @param retryAfter when to retry
	 */
	record InProgress(Duration retryAfter) implements RefundOutcome {
	}

	/** No such payment for this client: 404, exactly as for an unknown payment. */
	record PaymentNotFound() implements RefundOutcome {
	}

	/**
	 * The payment has no captured money to refund: it is neither SUCCEEDED nor a manual
	 * payment with captures (AUTHORIZED, or VOIDED after them; docs/design.md section
	 * 15).
	 *
	 * @param status the payment's status
	 */
	record PaymentNotRefundable(PaymentStatus status) implements RefundOutcome {
	}

	/**
	 * The refund asks for more than the payment has left to refund (its amount minus
	 * refunded and in-flight refunds).
	 *
	 * @param refundable minor units that could be refunded now, possibly 0
	 */
	record ExceedsRefundable(long refundable) implements RefundOutcome {
	}

	/**
	 * The provider cannot refund this amount in the payment's currency (docs/design.md
	 * section 5, "Amounts at the provider"): 400, decided before the claim, so nothing is
	 * stored and a corrected retry with the same key is accepted.
	 *
	 * @param amount the amount asked for, in the payment's currency
	 * @param limits the amounts the provider takes in that currency
	 */
	record AmountNotSupported(Money amount, AmountLimits limits) implements RefundOutcome {
	}

	/**
	 * The provider refused before refunding (an earlier attempt under the key may still
	 * have refunded, so no answer says nothing was refunded): 503. The refund stays
	 * {@code PENDING} and keeps its reservation; a retry with the same key resolves it
	 * without a second refund.
	 *
	 * @param refundId the refund the retry will resolve
	 * @param retryAfter when to retry
	 */
	record ProviderUnavailable(RefundId refundId, Duration retryAfter) implements RefundOutcome {
	}

	/**
	 * The provider may have refunded: 503, as {@link ProviderUnavailable}; the client's
	 * retry or the reconciler learns what happened.
	 *
	 * @param refundId the refund the retry will resolve
	 * @param retryAfter when to retry
	 */
	record OutcomeUnknown(RefundId refundId, Duration retryAfter) implements RefundOutcome {
	}

}
