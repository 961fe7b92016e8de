package io.payonce.client;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The call ended without a final answer: the operation may or may not have happened (a
 * charge may have been made, a refund sent). Nothing is lost: the service holds at most
 * one operation per key, so calling again later with the same {@link #key()} and the same
 * request returns the one outcome (a replay), never a second charge or refund. With a
 * {@link #paymentId()} the payment can also be read ({@link Payments#get(PaymentId)}).
 * Never answer an unknown outcome with a new key: that is how a retry becomes a second
 * charge.
 *
 * @param key the key to call again with
 * @param paymentId the payment, when an answer named it (a payment's {@code 503}, or the
 * payment a refund was asked for)
 * @param refundId the refund, when an answer named it (a refund's {@code 503})
 * @param reason why the last attempt did not settle the call
 * @param attempts how many attempts were made
 * @param retryAfter the last answer's {@code Retry-After}, if it had one: no sooner
 */
public record OutcomeUnknown(IdempotencyKey key, Optional<PaymentId> paymentId, Optional<RefundId> refundId,
		Reason reason, int attempts, Optional<Duration> retryAfter) implements PaymentOutcome, RefundOutcome {

	/** Checks the components are present. */
	public OutcomeUnknown {
		Objects.requireNonNull(key, "key");
		Objects.requireNonNull(paymentId, "paymentId");
		Objects.requireNonNull(refundId, "refundId");
		Objects.requireNonNull(reason, "reason");
		Objects.requireNonNull(retryAfter, "retryAfter");
	}

	/** Why a call ended without a final answer: what its last attempt met. */
	public enum Reason {

		/** No connection, or it was reset or closed before the whole answer arrived. */
		CONNECTION_FAILED,
		/** No whole answer within the attempt's timeout. */
		TIMED_OUT,
		/** {@code 409 idempotency-request-in-progress}: another attempt still runs. */
		IN_PROGRESS,
		/** {@code 429}: over the client's rate or live-key quota. */
		RATE_LIMITED,
		/**
		 * {@code 503} (the provider or the database unavailable, or the provider's
		 * outcome unknown), {@code 502}, {@code 504} or {@code 408}.
		 */
		UNAVAILABLE,
		/** {@code 500}: a bug in the service, not retried. */
		SERVER_ERROR,
		/** The calling thread was interrupted; its interrupt flag is set again. */
		INTERRUPTED

	}

}
