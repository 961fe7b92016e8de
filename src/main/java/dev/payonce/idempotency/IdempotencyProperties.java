package dev.payonce.idempotency;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the idempotency engine, under {@code payonce.idempotency.*}.
 *
 * @param lease how long a claim holds the key before another request may take it over; it
 * must exceed the worst case of the work done under it (docs/design.md section 4)
 * @param retention how long a completed record is replayed before the key may start a new
 * operation (docs/design.md section 4, default 24 hours)
 * @param retryAfter the {@code Retry-After} sent with 409 and 503 answers
 * @param inProgressWait how long a request that finds a live lease waits for the first
 * request to finish before answering 409; 0 (the default) answers 409 at once
 * @param cleanup the retention job that deletes expired completed records
 * @param replayCacheSize how many completed responses this instance keeps in memory to
 * replay without reading the database (default 10,000; 0 turns the cache off)
 */
@Validated
@ConfigurationProperties("payonce.idempotency")
record IdempotencyProperties(@DefaultValue("30s") @DurationMin(seconds = 1) Duration lease,
		@DefaultValue("24h") @DurationMin(seconds = 1) Duration retention,
		@DefaultValue("1s") @DurationMin(seconds = 1) Duration retryAfter,
		@DefaultValue("0s") @DurationMin(seconds = 0) Duration inProgressWait, @DefaultValue @Valid Cleanup cleanup,
		@DefaultValue("10000") @Min(0) int replayCacheSize) {

	/**
	 * The retention job (docs/design.md section 4, step 6), under
	 * {@code payonce.idempotency.cleanup.*}.
	 *
	 * @param enabled whether this instance runs it (default true)
	 * @param interval the pause between two runs (default 1m)
	 * @param batchSize the most records one transaction deletes (default 500), so that no
	 * run holds many row locks for long
	 */
	public record Cleanup(@DefaultValue("true") boolean enabled,
			@DefaultValue("1m") @DurationMin(millis = 10) Duration interval,
			@DefaultValue("500") @Min(1) @Max(10_000) int batchSize) {

	}

}
