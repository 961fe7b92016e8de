package io.payonce.client;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One attempt of a call, as an {@link AttemptListener} sees it when the attempt ends. It
 * names no idempotency key, header value or body, so it may be logged or counted as it
 * is.
 *
 * @param operation the operation: {@code createPayment}, {@code getPayment},
 * {@code createRefund}, {@code listRefunds} or {@code getRefund}
 * @param number 1 for the first attempt of the call
 * @param status the HTTP status of the answer, or empty if none arrived
 * @param failure what happened instead of an answer (the exception's simple class name,
 * such as {@code HttpTimeoutException} or {@code ConnectException}), or empty
 * @param nextRetryIn the wait before the next attempt, or empty if this attempt was the
 * call's last
 * @param elapsed time since the call started, at the end of this attempt
 */
public record Attempt(String operation, int number, OptionalInt status, Optional<String> failure,
		Optional<Duration> nextRetryIn, Duration elapsed) {

	/**
	 * Whether another attempt follows this one.
	 * @return true if the call retries
	 */
	public boolean retried() {
		return this.nextRetryIn.isPresent();
	}

}
