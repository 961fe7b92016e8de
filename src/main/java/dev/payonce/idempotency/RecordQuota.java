package dev.payonce.idempotency;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * Caps the live idempotency records of a scope ({@link QuotaProperties}). A request whose
 * key already has a record is always admitted (its replay, 409 or takeover costs no new
 * record); one with a new key is refused once the scope holds {@code max-live-records},
 * until its oldest stored response expires.
 *
 * <p>
 * The count comes from PostgreSQL, so the cap holds across instances; each instance
 * trusts its count for {@code check-interval} and stops counting at the cap, so a scope
 * costs one bounded count per interval and nothing per request while it is under the cap.
 * Thread-safe.
 */
@Component
class RecordQuota {

	private final RecordRetention records;

	private final QuotaProperties properties;

	private final Clock clock;

	private final Cache<String, Usage> usage;

	RecordQuota(RecordRetention records, QuotaProperties properties, Clock clock) {
		this.records = records;
		this.properties = properties;
		this.clock = clock;
		this.usage = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(properties.checkInterval()).build();
	}

	/**
	 * Whether a request with this key may go on to claim it.
	 * @param scope who owns the key (for payments, the client id)
	 * @param key the idempotency key
	 * @return empty if admitted; otherwise how long until the scope's oldest live record
	 * expires, for {@code Retry-After}
	 * @throws org.springframework.dao.DataAccessException if the database fails
	 */
	Optional<Duration> refusal(String scope, IdempotencyKey key) {
		long max = this.properties.maxLiveRecords();
		if (max == 0) {
			return Optional.empty();
		}
		Usage current = this.usage.get(scope, (s) -> count(s, max));
		if (current.live() < max || this.records.exists(scope, key)) {
			return Optional.empty();
		}
		Instant oldest = current.oldestExpiry();
		Duration wait = (oldest != null) ? Duration.between(this.clock.instant(), oldest)
				: this.properties.checkInterval();
		return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
	}

	private Usage count(String scope, long max) {
		long live = this.records.countLive(scope, max);
		if (live < max) {
			return new Usage(live, null);
		}
		// The expiry by this instance's clock: the time left by the database's clock.
		Instant now = this.clock.instant();
		return new Usage(live, this.records.oldestExpiry(scope).map(now::plus).orElse(null));
	}

	/**
	 * A scope's live records as last counted (at most the cap), and when the oldest
	 * expires.
	 */
	private record Usage(long live, @Nullable Instant oldestExpiry) {

	}

}
