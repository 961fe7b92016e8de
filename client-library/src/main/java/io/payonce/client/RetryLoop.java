package io.payonce.client;

import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Runs one call: attempts of the same {@link ApiRequest} (same key, same bytes) under a
 * {@link RetryPolicy}, until an answer the policy does not retry, the last attempt, or
 * the deadline. It never changes the request between attempts.
 */
final class RetryLoop {

	private final Transport transport;

	private final RetryPolicy policy;

	private final AttemptListener listener;

	private final LongSupplier nanoTime;

	private final Sleeper sleeper;

	private final Clock clock;

	private final Supplier<RandomGenerator> random;

	RetryLoop(Transport transport, RetryPolicy policy, AttemptListener listener, LongSupplier nanoTime, Sleeper sleeper,
			Clock clock, Supplier<RandomGenerator> random) {
		this.transport = transport;
		this.policy = policy;
		this.listener = listener;
		this.nanoTime = nanoTime;
		this.sleeper = sleeper;
		this.clock = clock;
		this.random = random;
	}

	CallResult run(ApiRequest request) {
		long start = this.nanoTime.getAsLong();
		long deadline = start + this.policy.deadline().toNanos();
		List<Problem> problems = new ArrayList<>();
		for (int attempt = 1;; attempt++) {
			long remaining = deadline - this.nanoTime.getAsLong();
			Duration timeout = Duration.ofNanos(Math.min(this.policy.attemptTimeout().toNanos(), remaining));
			ApiResponse response;
			OutcomeUnknown.Reason reason;
			Optional<Duration> retryAfter = Optional.empty();
			IOException failed = null;
			try {
				response = this.transport.send(request, timeout);
			}
			catch (IOException ex) {
				response = null;
				failed = ex;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				notify(request, attempt, null, "InterruptedException", null, start);
				return new CallResult.GaveUp(OutcomeUnknown.Reason.INTERRUPTED, attempt, Optional.empty(), problems);
			}
			if (response != null) {
				Problem problem = (response.status() >= 400) ? Json.problem(response).orElse(null) : null;
				if (!this.policy.retries(response.status(), (problem != null) ? problem.slug() : null)) {
					notify(request, attempt, response, null, null, start);
					return new CallResult.Answered(response, attempt, problems);
				}
				if (problem != null) {
					problems.add(problem);
				}
				reason = reasonOf(response.status());
				retryAfter = response.header("Retry-After")
					.flatMap((value) -> RetryPolicy.retryAfter(value, this.clock.instant()));
			}
			else {
				reason = (failed instanceof HttpTimeoutException) ? OutcomeUnknown.Reason.TIMED_OUT
						: OutcomeUnknown.Reason.CONNECTION_FAILED;
			}
			String failure = (failed != null) ? failed.getClass().getSimpleName() : null;
			int retry = attempt;
			Duration wait = retryAfter.orElseGet(() -> this.policy.backoff(retry, this.random.get()));
			if (attempt >= this.policy.maxAttempts() || this.nanoTime.getAsLong() + wait.toNanos() >= deadline) {
				notify(request, attempt, response, failure, null, start);
				return new CallResult.GaveUp(reason, attempt, retryAfter, problems);
			}
			notify(request, attempt, response, failure, wait, start);
			try {
				this.sleeper.sleep(wait);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return new CallResult.GaveUp(OutcomeUnknown.Reason.INTERRUPTED, attempt, retryAfter, problems);
			}
		}
	}

	private static OutcomeUnknown.Reason reasonOf(int status) {
		return switch (status) {
			case 409 -> OutcomeUnknown.Reason.IN_PROGRESS;
			case 429 -> OutcomeUnknown.Reason.RATE_LIMITED;
			default -> OutcomeUnknown.Reason.UNAVAILABLE;
		};
	}

	private void notify(ApiRequest request, int attempt, ApiResponse response, String failure, Duration next,
			long start) {
		Attempt event = new Attempt(request.operation(), attempt,
				(response != null) ? OptionalInt.of(response.status()) : OptionalInt.empty(),
				Optional.ofNullable(failure), Optional.ofNullable(next),
				Duration.ofNanos(this.nanoTime.getAsLong() - start));
		try {
			this.listener.attempted(event);
		}
		catch (RuntimeException ex) {
			// A listener's failure must not change the call's outcome.
		}
	}

	/** Waits between attempts. */
	@FunctionalInterface
	interface Sleeper {

		Sleeper THREAD = (duration) -> Thread.sleep(duration);

		void sleep(Duration duration) throws InterruptedException;

	}

	/** What a call came to. */
	sealed interface CallResult {

		/**
		 * The newest value of a problem member that the answers of this call named.
		 * @param name the member, such as {@code paymentId}
		 * @return its value, or empty
		 */
		default Optional<String> named(String name) {
			List<Problem> problems = (this instanceof Answered answered) ? answered.problems()
					: ((GaveUp) this).problems();
			return problems.reversed().stream().flatMap((problem) -> problem.member(name).stream()).findFirst();
		}

		/**
		 * An answer the policy does not retry.
		 *
		 * @param response the answer
		 * @param attempts attempts made
		 * @param problems the problems of the earlier, retried answers, oldest first
		 */
		record Answered(ApiResponse response, int attempts, List<Problem> problems) implements CallResult {

		}

		/**
		 * No final answer.
		 *
		 * @param reason what the last attempt met
		 * @param attempts attempts made
		 * @param retryAfter the last answer's Retry-After
		 * @param problems the problems answered, oldest first
		 */
		record GaveUp(OutcomeUnknown.Reason reason, int attempts, Optional<Duration> retryAfter,
				List<Problem> problems) implements CallResult {

		}

	}

}
