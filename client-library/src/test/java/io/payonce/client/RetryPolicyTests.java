package io.payonce.client;

import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RetryPolicyTests {

	private final RetryPolicy policy = RetryPolicy.defaults();

	@Test
	void retriesOnlyTheAnswersThatSayTo() {
		assertThat(this.policy.retries(409, "idempotency-request-in-progress")).isTrue();
		assertThat(this.policy.retries(429, "rate-limit-exceeded")).isTrue();
		assertThat(this.policy.retries(429, "idempotency-quota-exceeded")).isTrue();
		assertThat(this.policy.retries(503, "payment-outcome-unknown")).isTrue();
		assertThat(this.policy.retries(503, "service-unavailable")).isTrue();
		assertThat(this.policy.retries(503, null)).isTrue();
		assertThat(this.policy.retries(408, "request-timeout")).isTrue();
		assertThat(this.policy.retries(502, null)).isTrue();
		assertThat(this.policy.retries(504, null)).isTrue();
	}

	@Test
	void neverRetriesAnotherClientErrorOrASuccessOrA500() {
		for (int status : new int[] { 200, 201, 400, 401, 402, 403, 404, 405, 406, 413, 415, 417, 422, 500, 501,
				505 }) {
			assertThat(this.policy.retries(status, "whatever")).as("status %d", status).isFalse();
		}
		assertThat(this.policy.retries(409, "refund-exceeds-refundable")).isFalse();
		assertThat(this.policy.retries(409, "payment-not-refundable")).isFalse();
		assertThat(this.policy.retries(409, null)).isFalse();
		assertThat(this.policy.retries(402, "payment-declined")).isFalse();
	}

	@Test
	void backoffIsFullJitterUnderADoublingCap() {
		RetryPolicy policy = RetryPolicy.defaults().withBackoff(Duration.ofMillis(100), Duration.ofMillis(1000));
		RandomGenerator random = new SplittableRandom(42);

		for (int retry = 1; retry <= 8; retry++) {
			Duration cap = policy.backoffCap(retry);
			Duration low = Duration.ofDays(1);
			Duration high = Duration.ZERO;
			for (int i = 0; i < 2_000; i++) {
				Duration wait = policy.backoff(retry, random);
				low = (wait.compareTo(low) < 0) ? wait : low;
				high = (wait.compareTo(high) > 0) ? wait : high;
			}

			assertThat(cap).isEqualTo(Duration.ofMillis(Math.min(1000, 100L << (retry - 1))));
			assertThat(low).isGreaterThanOrEqualTo(Duration.ZERO).isLessThan(cap.multipliedBy(5).dividedBy(100));
			assertThat(high).isLessThanOrEqualTo(cap).isGreaterThan(cap.multipliedBy(95).dividedBy(100));
		}
	}

	@Test
	void backoffCapStopsAtTheMaximumWithoutOverflow() {
		RetryPolicy policy = RetryPolicy.defaults().withMaxAttempts(100);

		assertThat(policy.backoffCap(100)).isEqualTo(policy.maxBackoff());
		assertThat(policy.backoffCap(64)).isEqualTo(policy.maxBackoff());
		assertThat(policy.backoff(100, new SplittableRandom(1))).isLessThanOrEqualTo(policy.maxBackoff());
	}

	@Test
	void readsRetryAfterInSeconds() {
		Instant now = Instant.parse("2026-12-02T10:00:00Z");

		assertThat(RetryPolicy.retryAfter("1", now)).contains(Duration.ofSeconds(1));
		assertThat(RetryPolicy.retryAfter(" 120 ", now)).contains(Duration.ofSeconds(120));
		assertThat(RetryPolicy.retryAfter("0", now)).contains(Duration.ZERO);
	}

	@Test
	void readsRetryAfterAsAnHttpDate() {
		Instant now = Instant.parse("2015-10-21T07:27:30Z");

		assertThat(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now)).contains(Duration.ofSeconds(30));
		assertThat(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:00:00 GMT", now)).contains(Duration.ZERO);
	}

	@Test
	void ignoresRetryAfterItCannotRead() {
		Instant now = Instant.now();

		assertThat(RetryPolicy.retryAfter("-1", now)).isEmpty();
		assertThat(RetryPolicy.retryAfter("1.5", now)).isEmpty();
		assertThat(RetryPolicy.retryAfter("soon", now)).isEmpty();
		assertThat(RetryPolicy.retryAfter("", now)).isEmpty();
		assertThat(RetryPolicy.retryAfter("99999999999999999999999", now)).isEmpty();
	}

	@Test
	void refusesSettingsThatCannotWork() {
		assertThatIllegalArgumentException().isThrownBy(() -> RetryPolicy.defaults().withMaxAttempts(0))
			.withMessageContaining("maxAttempts");
		assertThatIllegalArgumentException().isThrownBy(() -> RetryPolicy.defaults().withDeadline(Duration.ZERO))
			.withMessageContaining("deadline");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RetryPolicy.defaults().withBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
			.withMessageContaining("maxBackoff");
	}

}
