package dev.payonce.idempotency;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CompletedResponsesTests {

	private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

	private static final IdempotencyKey KEY = new IdempotencyKey("order-1");

	private static final IdempotencyScope ALICE = new IdempotencyScope("alice");

	@Test
	void replaysACachedRecordUntilItExpires() {
		CompletedResponses cache = new CompletedResponses(properties(100));
		CompletedResponses.Completed completed = completed(NOW.plus(Duration.ofHours(24)));

		cache.remember(ALICE, KEY, completed);

		assertThat(cache.find(ALICE, KEY, NOW.plus(Duration.ofHours(23)))).contains(completed);
		assertThat(cache.find(ALICE, KEY, NOW.plus(Duration.ofHours(24)))).isEmpty();
		assertThat(cache.find(ALICE, KEY, NOW)).as("an expired entry is dropped, not revived").isEmpty();
	}

	@Test
	void neverAnswersForAnotherClient() {
		CompletedResponses cache = new CompletedResponses(properties(100));

		cache.remember(ALICE, KEY, completed(NOW.plus(Duration.ofHours(24))));

		assertThat(cache.find(new IdempotencyScope("bob"), KEY, NOW)).isEmpty();
	}

	@Test
	void keepsNothingWhenTurnedOff() {
		CompletedResponses cache = new CompletedResponses(properties(0));

		cache.remember(ALICE, KEY, completed(NOW.plus(Duration.ofHours(24))));

		assertThat(cache.find(ALICE, KEY, NOW)).isEmpty();
	}

	private static CompletedResponses.Completed completed(Instant expiresAt) {
		return new CompletedResponses.Completed("payment", RequestFingerprint.of("POST", "/payments", Map.of("a", "1")),
				new StoredResponse(201, Map.of("Location", "/payments/1"), "{}"), expiresAt, NOW);
	}

	private static IdempotencyProperties properties(int replayCacheSize) {
		return new IdempotencyProperties(Duration.ofSeconds(30), Duration.ofHours(24), Duration.ofSeconds(1),
				Duration.ZERO, new IdempotencyProperties.Cleanup(true, Duration.ofMinutes(1), 500), replayCacheSize);
	}

}
