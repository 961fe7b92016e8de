package dev.payonce.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules of {@link ApiKeyCache} on their own, deterministic: what is cached, when the
 * cache is bypassed, and the generation rule that keeps a lookup racing an invalidation
 * from serving a revoked key.
 */
class ApiKeyCacheTests {

	private static final String DIGEST = "a".repeat(64);

	private static final ClientId CLIENT = new ClientId("cli_cached");

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final ApiKeyCache cache = new ApiKeyCache(
			new KeyCacheProperties(true, null, null, null, 100, Duration.ofMinutes(10), Duration.ofSeconds(1)),
			this.meters, this.now::get);

	private final Database database = new Database();

	@Test
	void answersASecondLookupOfAnActiveKeyWithoutTheDatabase() {
		this.cache.subscribed(this.now.get());

		Optional<ClientId> first = this.cache.find(DIGEST, this.database);
		Optional<ClientId> second = this.cache.find(DIGEST, this.database);

		assertThat(first).contains(CLIENT);
		assertThat(second).contains(CLIENT);
		assertThat(this.database.lookups).hasSize(1);
		assertThat(lookups("hit")).isEqualTo(1);
		assertThat(lookups("miss")).isEqualTo(1);
	}

	@Test
	void neverCachesAnUnknownKey() {
		this.cache.subscribed(this.now.get());
		this.database.active = false;

		for (int i = 0; i < 3; i++) {
			assertThat(this.cache.find(DIGEST, this.database)).isEmpty();
		}

		assertThat(this.database.lookups).hasSize(3);
		assertThat(lookups("miss")).isEqualTo(3);
		assertThat(this.meters.get("payonce.key.cache.size").gauge().value()).isZero();
	}

	@Test
	void asksTheDatabaseEveryTimeUntilTheListenerHasSubscribed() {
		this.cache.find(DIGEST, this.database);
		this.cache.find(DIGEST, this.database);

		assertThat(this.database.lookups).hasSize(2);
		assertThat(lookups("bypass")).isEqualTo(2);
		assertThat(this.meters.get("payonce.key.cache.listener.up").gauge().value()).isZero();
	}

	@Test
	void bypassesAndForgetsEverythingWhileTheSubscriptionIsLost() {
		this.cache.subscribed(this.now.get());
		this.cache.find(DIGEST, this.database);

		this.cache.unsubscribed();
		this.cache.find(DIGEST, this.database);
		this.cache.find(DIGEST, this.database);
		this.cache.subscribed(this.now.get());
		this.cache.find(DIGEST, this.database);

		assertThat(this.database.lookups).hasSize(4);
		assertThat(lookups("bypass")).isEqualTo(2);
		assertThat(lookups("hit")).isZero();
	}

	@Test
	void refusesARevokedKeyAtTheFirstLookupAfterTheInvalidation() {
		this.cache.subscribed(this.now.get());
		this.cache.find(DIGEST, this.database);

		this.database.active = false;
		this.cache.invalidateAll();

		assertThat(this.cache.find(DIGEST, this.database)).isEmpty();
		assertThat(this.meters.get("payonce.key.cache.invalidations").counter().count()).isEqualTo(1);
	}

	@Test
	void aLookupThatReadTheKeyBeforeAnInvalidationCannotServeItAfterwards() {
		this.cache.subscribed(this.now.get());
		// The database read sees the key still active; the revocation commits and its
		// notification is handled before this lookup stores what it read.
		Function<String, Optional<ClientId>> readBeforeTheRevocation = (digest) -> {
			Optional<ClientId> read = this.database.apply(digest);
			this.database.active = false;
			this.cache.invalidateAll();
			return read;
		};

		Optional<ClientId> racing = this.cache.find(DIGEST, readBeforeTheRevocation);
		Optional<ClientId> next = this.cache.find(DIGEST, this.database);

		assertThat(racing).contains(CLIENT);
		assertThat(next).isEmpty();
		assertThat(lookups("hit")).isZero();
	}

	@Test
	void anEntryOfAnEarlierGenerationIsNeverServedEvenIfStoredLate() {
		this.cache.subscribed(this.now.get());
		// A lookup that ran across a lost and regained subscription.
		Function<String, Optional<ClientId>> readAcrossAReconnect = (digest) -> {
			Optional<ClientId> read = this.database.apply(digest);
			this.cache.unsubscribed();
			this.cache.subscribed(this.now.get());
			return read;
		};

		this.cache.find(DIGEST, readAcrossAReconnect);
		this.cache.find(DIGEST, this.database);

		assertThat(lookups("hit")).isZero();
		assertThat(this.database.lookups).hasSize(2);
	}

	@Test
	void stopsTrustingTheCacheWhenNoProbeCameBackWithinThreeHeartbeats() {
		this.cache.subscribed(this.now.get());
		this.cache.find(DIGEST, this.database);

		this.now.addAndGet(Duration.ofMillis(3_001).toNanos());
		Optional<ClientId> silent = this.cache.find(DIGEST, this.database);
		this.cache.confirmed(this.now.get());
		Optional<ClientId> confirmed = this.cache.find(DIGEST, this.database);

		assertThat(silent).contains(CLIENT);
		assertThat(confirmed).contains(CLIENT);
		assertThat(lookups("bypass")).isEqualTo(1);
		assertThat(lookups("hit")).isEqualTo(1);
	}

	private double lookups(String outcome) {
		return this.meters.get("payonce.key.cache.lookups").tag("outcome", outcome).counter().count();
	}

	/** The database's answer for {@link #DIGEST}, and the lookups it was asked. */
	private static final class Database implements Function<String, Optional<ClientId>> {

		volatile boolean active = true;

		final List<String> lookups = new ArrayList<>();

		@Override
		public Optional<ClientId> apply(String digest) {
			this.lookups.add(digest);
			return this.active ? Optional.of(CLIENT) : Optional.empty();
		}

	}

}
