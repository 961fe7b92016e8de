package dev.payonce.capture;

import java.time.Duration;

import dev.payonce.idempotency.StoredResponse;
import dev.payonce.payment.PaymentStatus;

/**
 * What {@link VoidService#voidPayment} decided, for the HTTP layer to render
 * (docs/design.md section 15). Refusals are decided in the claim and store nothing.
 */
public sealed interface VoidOutcome {

	/**
	 * A final answer (200 voided, 402 declined or failed), the same bytes for the first
	 * request and every replay.
	 *
	 * @param response the stored response
	 * @param replayed {@code true} when an earlier request stored it
	 */
	record Completed(StoredResponse response, boolean replayed) implements VoidOutcome {
	}

	/** The key was used with a different request or for another operation: 422. */
	record KeyReused() implements VoidOutcome {
	}

	/**
	 * Another request with the key is still running: 409.
	 *
	 * @param retryAfter when to retry
	 */
	record InProgress(Duration retryAfter) implements VoidOutcome {
	}

	/** No such payment for this client: 404. */
	record PaymentNotFound() implements VoidOutcome {
	}

	/**
	 * The payment holds no authorization to release, or a capture or another void holds
	 * it now: 409.
	 *
	 * @param status the payment's status
	 */
	record PaymentNotVoidable(PaymentStatus status) implements VoidOutcome {
	}

	/**
	 * The provider refused before voiding or its outcome is unknown: 503; the payment
	 * stays held by the void until a retry with the same key or the reconciler settles
	 * it.
	 *
	 * @param voidId the void the retry will resolve
	 * @param retryAfter when to retry
	 * @param outcomeUnknown {@code true} if the provider may have voided
	 */
	record Unresolved(VoidId voidId, Duration retryAfter, boolean outcomeUnknown) implements VoidOutcome {
	}

}
