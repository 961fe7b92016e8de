package dev.payonce.idempotency;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * A bounded in-process cache of completed responses, so a replay need not read the
 * database. Sound because a COMPLETED record never changes until it expires: each entry
 * carries the record's operation and request fingerprint (so a mismatch is still a
 * mismatch) and its expiry, as the time the database's clock had left for it turned into
 * an instant of the application clock when it was read (docs/design.md section 4, "One
 * clock for leases"), checked against the application clock on every read and also used
 * to evict it. Entries are keyed by scope and idempotency key, so nothing crosses scopes.
 * Thread-safe.
 */
@Component
class CompletedResponses {

	private final @Nullable Cache<Key, Completed> cache;

	CompletedResponses(IdempotencyProperties properties) {
		this.cache = (properties.replayCacheSize() > 0) ? Caffeine.newBuilder()
			.maximumSize(properties.replayCacheSize())
			.expireAfter(Expiry.<Key, Completed>creating((cacheKey, completed) -> completed.timeToLive()))
			.build() : null;
	}

	/** The completed response of a key, if cached and not expired at {@code now}. */
	Optional<Completed> find(IdempotencyScope scope, IdempotencyKey key, Instant now) {
		if (this.cache == null) {
			return Optional.empty();
		}
		Key cacheKey = new Key(scope, key);
		Completed completed = this.cache.getIfPresent(cacheKey);
		if (completed == null) {
			return Optional.empty();
		}
		if (!now.isBefore(completed.expiresAt())) {
			this.cache.invalidate(cacheKey);
			return Optional.empty();
		}
		return Optional.of(completed);
	}

	/** Remembers a completed record read from the database. */
	void remember(IdempotencyScope scope, IdempotencyKey key, Completed completed) {
		if (this.cache != null) {
			this.cache.put(new Key(scope, key), completed);
		}
	}

	private record Key(IdempotencyScope scope, IdempotencyKey key) {
	}

	/**
	 * One completed record.
	 *
	 * @param operation the operation the record belongs to
	 * @param fingerprint the fingerprint of the request that completed it
	 * @param response the stored response
	 * @param expiresAt when it stops being replayed, by the application clock (UTC)
	 * @param cachedAt when it was read (UTC), to bound its time in the cache
	 */
	record Completed(String operation, RequestFingerprint fingerprint, StoredResponse response, Instant expiresAt,
			Instant cachedAt) {

		boolean sameRequest(String operation, RequestFingerprint fingerprint) {
			return this.operation.equals(operation) && this.fingerprint.equals(fingerprint);
		}

		Duration timeToLive() {
			Duration left = Duration.between(this.cachedAt, this.expiresAt);
			return left.isNegative() ? Duration.ZERO : left;
		}

	}

}
