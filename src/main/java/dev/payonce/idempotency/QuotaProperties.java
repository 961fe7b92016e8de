package dev.payonce.idempotency;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The cap on live idempotency records per scope (for payments, per client), under
 * {@code payonce.idempotency.quota.*}. A record is live while it is in progress or its
 * stored response has not expired; each holds the key, the fingerprint and the stored
 * response (up to about 2 KB), so the cap bounds what one client can make the database
 * keep.
 *
 * @param maxLiveRecords the most live records a scope may hold before a request with a
 * new key is answered 429 (default 1,000,000, about 2 GB at the largest records and 11.5
 * new keys a second for the default 24 h retention); 0 turns the cap off
 * @param checkInterval how long an instance trusts its count of a scope's live records
 * before counting again (default 10s); the cap may be overshot by what the scope creates
 * on all instances within one interval, at most the rate limit times the interval per
 * instance
 */
@Validated
@ConfigurationProperties("payonce.idempotency.quota")
record QuotaProperties(@DefaultValue("1000000") @Min(0) long maxLiveRecords,
		@DefaultValue("10s") @DurationMin(millis = 1) Duration checkInterval) {

}
