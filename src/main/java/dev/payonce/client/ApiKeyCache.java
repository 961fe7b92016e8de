package dev.payonce.client;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * This instance's cache of API key digest to active client (docs/design.md section 12).
 *
 * <p>
 * Rules, each proved by {@code ApiKeyCacheTests}:
 * <ul>
 * <li>Only a key the database found active is cached; an unknown, revoked or disabled key
 * is looked up again every time.</li>
 * <li>The cache is trusted only while {@link ApiKeyChangeListener} is subscribed and its
 * last probe, sent within the last three heartbeats, came back; otherwise every lookup
 * goes to the database (a <em>bypass</em>) and nothing is cached. It starts untrusted,
 * and becomes trusted only once subscribed, with every earlier entry gone.</li>
 * <li>Every entry carries the <em>generation</em> in which its database lookup started;
 * {@link #invalidateAll()} and every loss of the subscription start a new generation, and
 * only an entry of the current generation is served. A lookup that read the database
 * before a revocation's notification was handled can therefore never serve the revoked
 * key afterwards, even if it stores its result after the invalidation.</li>
 * </ul>
 * Thread-safe; a hit costs a map lookup, two volatile reads and
 * {@link System#nanoTime()}.
 */
final class ApiKeyCache {

	/**
	 * Odd while the cache is not trusted (not subscribed yet, or the subscription was
	 * lost); even while it is. Every change adds at least one, so a generation is never
	 * reused.
	 */
	private volatile long generation = 1;

	/**
	 * When the last answered probe was sent ({@link System#nanoTime()}): every
	 * notification committed before then has been handled.
	 */
	private volatile long confirmedAt;

	private final long maxSilence;

	private final LongSupplier nanoTime;

	private final Cache<String, Entry> entries;

	private final Counter hits;

	private final Counter misses;

	private final Counter bypasses;

	private final Counter invalidations;

	ApiKeyCache(KeyCacheProperties properties, MeterRegistry meters) {
		this(properties, meters, System::nanoTime);
	}

	ApiKeyCache(KeyCacheProperties properties, MeterRegistry meters, LongSupplier nanoTime) {
		this.maxSilence = properties.heartbeat().multipliedBy(3).toNanos();
		this.nanoTime = nanoTime;
		this.entries = Caffeine.newBuilder()
			.maximumSize(properties.maximumSize())
			.expireAfterWrite(properties.timeToLive())
			.build();
		this.hits = lookups(meters, "hit");
		this.misses = lookups(meters, "miss");
		this.bypasses = lookups(meters, "bypass");
		this.invalidations = Counter.builder("payonce.key.cache.invalidations")
			.description("Times this instance forgot every cached API key: a key or client changed")
			.register(meters);
		Gauge.builder("payonce.key.cache.listener.up", this, (cache) -> cache.trusted() ? 1 : 0)
			.description("1 while the API key cache is trusted: its listener is subscribed and its probes come "
					+ "back; 0 while every request looks its key up in the database")
			.register(meters);
		Gauge.builder("payonce.key.cache.size", this.entries, Cache::estimatedSize)
			.description("API keys in this instance's cache, entries of past generations included")
			.register(meters);
	}

	private static Counter lookups(MeterRegistry meters, String outcome) {
		return Counter.builder("payonce.key.cache.lookups")
			.description("API key lookups: hit (answered from this instance's cache), miss (not cached, looked up "
					+ "in the database; unknown keys always are) or bypass (the cache was not trusted)")
			.tag("outcome", outcome)
			.register(meters);
	}

	/**
	 * The active client of the key with this digest: from the cache when it is trusted
	 * and holds an entry of the current generation, otherwise from {@code load}, whose
	 * answer is cached only if it found a client and no invalidation happened since this
	 * lookup began.
	 * @param digest the key's SHA-256 digest
	 * @param load the database lookup; runs on the calling thread
	 * @return the client, or empty if {@code load} found none
	 */
	Optional<ClientId> find(String digest, Function<String, Optional<ClientId>> load) {
		// Read before the database is: a load that started before an invalidation
		// carries the old generation.
		long started = this.generation;
		if (!trusted(started)) {
			this.bypasses.increment();
			return load.apply(digest);
		}
		Entry entry = this.entries.getIfPresent(digest);
		if (entry != null && entry.generation() == started) {
			this.hits.increment();
			return Optional.of(entry.clientId());
		}
		this.misses.increment();
		Optional<ClientId> found = load.apply(digest);
		if (found.isPresent() && this.generation == started) {
			// If an invalidation slips in between that check and this put, the entry
			// carries a past generation and is never served.
			this.entries.put(digest, new Entry(found.get(), started));
		}
		return found;
	}

	/**
	 * Forgets every cached key: a key or client changed (a notification, or a change
	 * committed by this instance).
	 */
	synchronized void invalidateAll() {
		this.generation += 2;
		this.entries.invalidateAll();
		this.invalidations.increment();
	}

	/**
	 * The listener has subscribed: forget everything cached before and trust the cache
	 * from a new generation.
	 * @param confirmedAt when the subscription was requested ({@link System#nanoTime()})
	 */
	synchronized void subscribed(long confirmedAt) {
		this.entries.invalidateAll();
		this.confirmedAt = confirmedAt;
		this.generation = (this.generation | 1) + 1;
	}

	/**
	 * The listener lost its subscription (or stopped): bypass the cache until
	 * {@link #subscribed}.
	 */
	synchronized void unsubscribed() {
		if ((this.generation & 1) == 0) {
			this.generation += 1;
		}
		this.entries.invalidateAll();
	}

	/**
	 * A probe came back: every notification committed before it was sent has been
	 * handled.
	 * @param sentAt when the probe was sent ({@link System#nanoTime()})
	 */
	void confirmed(long sentAt) {
		this.confirmedAt = sentAt;
	}

	/**
	 * Whether lookups may be answered from the cache now.
	 * @return true while subscribed and confirmed within three heartbeats
	 */
	boolean trusted() {
		return trusted(this.generation);
	}

	private boolean trusted(long generation) {
		return (generation & 1) == 0 && this.nanoTime.getAsLong() - this.confirmedAt <= this.maxSilence;
	}

	/** How long without an answered probe the cache stays trusted. */
	Duration maxSilence() {
		return Duration.ofNanos(this.maxSilence);
	}

	private record Entry(ClientId clientId, long generation) {

	}

}
