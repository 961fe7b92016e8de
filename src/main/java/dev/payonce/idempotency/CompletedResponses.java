package dev.payonce.idempotency;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

import dev.payonce.client.ClientId;

/**
 * A bounded in-process cache of completed responses, so a replay need not read the
 * database. Sound because a COMPLETED record never changes until it expires: each entry
 * carries the record's request fingerprint (so a mismatch is still a mismatch) and its
 * {@code expires_at}, checked against the application clock on every read and also used
 * to evict it. Entries are keyed by client and idempotency key, so nothing crosses
 * clients. Thread-safe.
 */
@Component
class CompletedResponses {

	private final @Nullable Cache<Scope, Completed> cache;

	CompletedResponses(IdempotencyProperties properties) {
		this.cache = (properties.replayCacheSize() > 0) ? Caffeine.newBuilder()
			.maximumSize(properties.replayCacheSize())
			.expireAfter(Expiry.<Scope, Completed>creating((scope, completed) -> completed.timeToLive()))
			.build() : null;
	}

	/** The completed response of a key, if cached and not expired at {@code now}. */
	Optional<Completed> find(ClientId clientId, IdempotencyKey key, Instant now) {
		if (this.cache == null) {
			return Optional.empty();
		}
		Scope scope = new Scope(clientId, key);
		Completed completed = this.cache.getIfPresent(scope);
		if (completed == null) {
			return Optional.empty();
		}
		if (!now.isBefore(completed.expiresAt())) {
			this.cache.invalidate(scope);
			return Optional.empty();
		}
		return Optional.of(completed);
	}

	/** Remembers a completed record read from the database. */
	void remember(ClientId clientId, IdempotencyKey key, Completed completed) {
		if (this.cache != null) {
			this.cache.put(new Scope(clientId, key), completed);
		}
	}

	private record Scope(ClientId clientId, IdempotencyKey key) {
	}

	/**
	 * One completed record.
	 *
	 * @param fingerprint the fingerprint of the request that completed it
	 * @param response the stored response
	 * @param expiresAt when it stops being replayed (UTC)
	 * @param cachedAt when it was read (UTC), to bound its time in the cache
	 */
	record Completed(RequestFingerprint fingerprint, StoredResponse response, Instant expiresAt, Instant cachedAt) {

		Duration timeToLive() {
			Duration left = Duration.between(this.cachedAt, this.expiresAt);
			return left.isNegative() ? Duration.ZERO : left;
		}

	}

}
