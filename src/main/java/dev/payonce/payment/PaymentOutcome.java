package dev.payonce.payment;

import java.time.Duration;

import dev.payonce.idempotency.StoredResponse;

/**
 * What {@link PaymentService#pay} decided, for the HTTP layer to render (docs/design.md
 * section 2).
 */
public sealed interface PaymentOutcome {

	/**
	 * A final answer (201 approved or 402 declined), the same bytes for the first request
	 * and every replay.
	 *
	 * @param response the stored response
	 * @param replayed {@code true} when the response was stored by an earlier request
	 */
	record Completed(StoredResponse response, boolean replayed) implements PaymentOutcome {
	}

	/** The key was used with a different request: 422, nothing executed. */
	record KeyReused() implements PaymentOutcome {
	}

	/**
	 * Another request with the key is still running: 409.
	 *
	 * @param retryAfter when to retry
	 */
	record InProgress(Duration retryAfter) implements PaymentOutcome {
	}

	/**
	 * The provider refused this attempt before processing it (an earlier attempt may
	 * still have charged, so no answer says nothing was charged): 503. The payment stays
	 * {@code PENDING}; a retry with the same key resolves it without a second charge.
	 *
	 * @param paymentId the payment the retry will resolve
	 * @param retryAfter when to retry
	 */
	record ProviderUnavailable(PaymentId paymentId, Duration retryAfter) implements PaymentOutcome {
	}

	/**
	 * This attempt may have charged: 503, as {@link ProviderUnavailable}; the client's
	 * retry or the reconciler learns what happened.
	 *
	 * @param paymentId the payment the retry will resolve
	 * @param retryAfter when to retry
	 */
	record OutcomeUnknown(PaymentId paymentId, Duration retryAfter) implements PaymentOutcome {
	}

}
