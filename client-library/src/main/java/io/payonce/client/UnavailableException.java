package io.payonce.client;

import java.time.Duration;
import java.util.Optional;

/**
 * A read ({@link Payments#get(PaymentId)}, a refund read or list) got no final answer
 * within its {@link RetryPolicy}: the service could not be reached, or kept answering
 * {@code 429} or {@code 503}. Reads change nothing, so calling again later is always
 * safe.
 */
public final class UnavailableException extends PayonceException {

	private final OutcomeUnknown.Reason reason;

	private final int attempts;

	private final Optional<Duration> retryAfter;

	UnavailableException(String operation, OutcomeUnknown.Reason reason, int attempts, Optional<Duration> retryAfter,
			Throwable cause) {
		super(operation + " got no final answer in " + attempts + " attempt(s): " + reason, cause);
		this.reason = reason;
		this.attempts = attempts;
		this.retryAfter = retryAfter;
	}

	/**
	 * What the last attempt met.
	 * @return the reason
	 */
	public OutcomeUnknown.Reason reason() {
		return this.reason;
	}

	/**
	 * How many attempts were made.
	 * @return at least 1
	 */
	public int attempts() {
		return this.attempts;
	}

	/**
	 * The last answer's {@code Retry-After}, if it had one.
	 * @return the wait, or empty
	 */
	public Optional<Duration> retryAfter() {
		return this.retryAfter;
	}

}
