package io.payonce.client;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * When and how long a call waits before it tries again, and when it stops.
 *
 * <p>
 * <strong>What is retried</strong> ({@link #retries(int, String)}): no answer at all (a
 * refused or reset connection, a connection closed before the whole answer arrived, an
 * attempt past its {@code attemptTimeout}); {@code 408} (the service did not get the body
 * in time: nothing was claimed, RFC 9110 section 15.5.9 lets the client repeat it);
 * {@code 409} of type {@code idempotency-request-in-progress} (another attempt with the
 * key still runs); {@code 429} (nothing was read or written); {@code 503} (the provider
 * or the database was unavailable; README, "Problem types"); and {@code 502} and
 * {@code 504}, which only a proxy in front of the service answers, for a connection it
 * lost or a timeout it met. Every other answer is final for its key, as the service's
 * contract says: another {@code 4xx} means the request must change, and {@code 500} is a
 * bug that repeating does not fix (a mutating call then ends as {@link OutcomeUnknown}).
 *
 * <p>
 * <strong>How long to wait</strong> before retry {@code n} (1 for the first retry): the
 * answer's {@code Retry-After} when it has one (delay-seconds or an HTTP-date, RFC 9110
 * section 10.2.3), exactly; otherwise "full jitter" exponential backoff, a uniformly
 * random wait from zero to {@code min(maxBackoff, initialBackoff × 2^(n-1))}, so that
 * clients that failed together do not retry together.
 *
 * <p>
 * <strong>When to stop</strong>: after {@code maxAttempts} attempts, or when the next
 * attempt could not start before the call's {@code deadline} (measured from the call's
 * start): a call never waits past its deadline, and each attempt's timeout is cut to what
 * remains of it. A call therefore returns within {@code deadline} (plus the time to
 * cancel an attempt that is cut off).
 *
 * @param maxAttempts the most attempts of one call, first included (1 to 100)
 * @param deadline the longest one call takes, all attempts and waits included
 * @param attemptTimeout the longest one attempt waits for its whole answer
 * @param initialBackoff the backoff cap of the first retry
 * @param maxBackoff the largest backoff cap
 */
public record RetryPolicy(int maxAttempts, Duration deadline, Duration attemptTimeout, Duration initialBackoff,
		Duration maxBackoff) {

	private static final RetryPolicy DEFAULTS = new RetryPolicy(5, Duration.ofSeconds(40), Duration.ofSeconds(15),
			Duration.ofMillis(500), Duration.ofSeconds(5));

	/**
	 * Checks the settings.
	 * @throws IllegalArgumentException if {@code maxAttempts} is outside 1 to 100, a
	 * duration is not positive, or {@code maxBackoff} is below {@code initialBackoff}
	 */
	public RetryPolicy {
		Objects.requireNonNull(deadline, "deadline");
		Objects.requireNonNull(attemptTimeout, "attemptTimeout");
		Objects.requireNonNull(initialBackoff, "initialBackoff");
		Objects.requireNonNull(maxBackoff, "maxBackoff");
		if (maxAttempts < 1 || maxAttempts > 100) {
			throw new IllegalArgumentException("maxAttempts must be 1 to 100, got " + maxAttempts);
		}
		requirePositive("deadline", deadline);
		requirePositive("attemptTimeout", attemptTimeout);
		requirePositive("initialBackoff", initialBackoff);
		requirePositive("maxBackoff", maxBackoff);
		if (maxBackoff.compareTo(initialBackoff) < 0) {
			throw new IllegalArgumentException(
					"maxBackoff (" + maxBackoff + ") must not be below initialBackoff (" + initialBackoff + ")");
		}
	}

	/**
	 * The defaults: 5 attempts, a 40 s deadline, 15 s per attempt (above the service's 10
	 * s provider timeout, so a slow charge that succeeds is not cut off), backoff from
	 * 500 ms up to 5 s.
	 * @return the default policy
	 */
	public static RetryPolicy defaults() {
		return DEFAULTS;
	}

	/**
	 * This policy with another number of attempts.
	 * @param maxAttempts 1 to 100
	 * @return a new policy
	 */
	public RetryPolicy withMaxAttempts(int maxAttempts) {
		return new RetryPolicy(maxAttempts, this.deadline, this.attemptTimeout, this.initialBackoff, this.maxBackoff);
	}

	/**
	 * This policy with another deadline per call.
	 * @param deadline positive
	 * @return a new policy
	 */
	public RetryPolicy withDeadline(Duration deadline) {
		return new RetryPolicy(this.maxAttempts, deadline, this.attemptTimeout, this.initialBackoff, this.maxBackoff);
	}

	/**
	 * This policy with another timeout per attempt.
	 * @param attemptTimeout positive
	 * @return a new policy
	 */
	public RetryPolicy withAttemptTimeout(Duration attemptTimeout) {
		return new RetryPolicy(this.maxAttempts, this.deadline, attemptTimeout, this.initialBackoff, this.maxBackoff);
	}

	/**
	 * This policy with other backoff bounds.
	 * @param initialBackoff the cap of the first retry's wait, positive
	 * @param maxBackoff the largest cap, at least {@code initialBackoff}
	 * @return a new policy
	 */
	public RetryPolicy withBackoff(Duration initialBackoff, Duration maxBackoff) {
		return new RetryPolicy(this.maxAttempts, this.deadline, this.attemptTimeout, initialBackoff, maxBackoff);
	}

	/**
	 * Whether an answer asks for another attempt with the same key (see the class
	 * comment); an attempt that got no answer always does.
	 * @param status the HTTP status
	 * @param problemSlug the last path segment of the problem's {@code type}, or
	 * {@code null} if the body is not a problem
	 * @return true to retry
	 */
	public boolean retries(int status, String problemSlug) {
		return switch (status) {
			case 408, 429, 502, 503, 504 -> true;
			case 409 -> "idempotency-request-in-progress".equals(problemSlug);
			default -> false;
		};
	}

	/**
	 * The wait before a retry whose answer named no {@code Retry-After}: uniformly random
	 * from zero to {@code min(maxBackoff, initialBackoff × 2^(retry-1))}, both ends
	 * included (full jitter).
	 * @param retry 1 for the first retry
	 * @param random the source of the jitter
	 * @return the wait
	 */
	public Duration backoff(int retry, RandomGenerator random) {
		if (retry < 1) {
			throw new IllegalArgumentException("retry counts from 1, got " + retry);
		}
		long cap = backoffCap(retry).toNanos();
		return Duration.ofNanos(random.nextLong(cap + 1));
	}

	/**
	 * The upper bound of {@link #backoff(int, RandomGenerator)} for a retry.
	 * @param retry 1 for the first retry
	 * @return {@code min(maxBackoff, initialBackoff × 2^(retry-1))}
	 */
	public Duration backoffCap(int retry) {
		long initial = this.initialBackoff.toNanos();
		long max = this.maxBackoff.toNanos();
		int doublings = Math.min(retry - 1, 62);
		long cap = (initial > (max >> doublings)) ? max : Math.min(max, initial << doublings);
		return Duration.ofNanos(cap);
	}

	/**
	 * Reads a {@code Retry-After} value (RFC 9110 section 10.2.3): delay-seconds (a
	 * non-negative integer) or an HTTP-date (IMF-fixdate, as RFC 9110 section 5.6.7
	 * requires senders to use). A date in the past means no wait.
	 * @param value the header's value
	 * @param now the time to measure a date from
	 * @return the wait, or empty if the value is neither form
	 */
	public static Optional<Duration> retryAfter(String value, Instant now) {
		String trimmed = value.strip();
		if (!trimmed.isEmpty() && trimmed.chars().allMatch((c) -> c >= '0' && c <= '9')) {
			try {
				return Optional.of(Duration.ofSeconds(Long.parseLong(trimmed)));
			}
			catch (NumberFormatException ex) {
				// More digits than a long: no sensible wait, ignore it like any
				// unreadable value.
				return Optional.empty();
			}
		}
		try {
			Instant at = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
			Duration wait = Duration.between(now, at);
			return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
		}
		catch (DateTimeParseException ex) {
			return Optional.empty();
		}
	}

	private static void requirePositive(String name, Duration value) {
		if (value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException(name + " must be positive, got " + value);
		}
	}

}
