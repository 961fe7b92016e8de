package dev.payonce.capture;

import java.time.Duration;

import dev.payonce.idempotency.StoredResponse;
import dev.payonce.payment.PaymentStatus;

/**
 * What {@link CaptureService#capture} decided, for the HTTP layer to render
 * (docs/design.md section 15). Refusals are decided in the claim and store nothing: a
 * later request with the same key is judged afresh.
 */
public sealed interface CaptureOutcome {

	/**
	 * A final answer (201 captured, 402 declined or failed), the same bytes for the first
	 * request and every replay.
	 *
	 * @param response the stored response
	 * @param replayed {@code true} when an earlier request stored it
	 */
	record Completed(StoredResponse response, boolean replayed) implements CaptureOutcome {
	}

	/** The key was used with a different request or for another operation: 422. */
	record KeyReused() implements CaptureOutcome {
	}

	/**
	 * Another request with the key is still running: 409.
	 *
	 * @param retryAfter when to retry
	 */
	record InProgress(Duration retryAfter) implements CaptureOutcome {
	}

	/** No such payment for this client: 404, exactly as for an unknown payment. */
	record PaymentNotFound() implements CaptureOutcome {
	}

	/**
	 * The payment holds no authorization to capture: automatic, not (or no longer)
	 * AUTHORIZED, fully captured, voided, or a void is in flight.
	 *
	 * @param status the payment's status
	 */
	record PaymentNotCapturable(PaymentStatus status) implements CaptureOutcome {
	}

	/** The authorization lapsed: its hold window has passed. */
	record AuthorizationExpired() implements CaptureOutcome {
	}

	/**
	 * The capture asks for more than the authorization has left (its amount minus
	 * captured and in-flight captures).
	 *
	 * @param capturable minor units that could be captured now, possibly 0
	 */
	record ExceedsCapturable(long capturable) implements CaptureOutcome {
	}

	/**
	 * The provider refused before capturing or its outcome is unknown: 503. The capture
	 * stays {@code PENDING} and keeps its reservation; a retry with the same key resolves
	 * it without a second capture.
	 *
	 * @param captureId the capture the retry will resolve
	 * @param retryAfter when to retry
	 * @param outcomeUnknown {@code true} if the provider may have captured
	 */
	record Unresolved(CaptureId captureId, Duration retryAfter, boolean outcomeUnknown) implements CaptureOutcome {
	}

}
