package dev.payonce.event;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of merchant events and their webhook delivery (docs/events.md,
 * docs/configuration.md).
 *
 * @param retention how long an event is kept, with its deliveries and attempts; Stripe
 * keeps events 30 days (https://docs.stripe.com/api/events)
 * @param dispatch whether this instance delivers webhooks
 * @param interval the pause between two dispatcher runs
 * @param batchSize the most deliveries one run claims
 * @param connectTimeout the longest a connection to an endpoint may take
 * @param responseTimeout the longest an endpoint may take to answer
 * @param firstRetry the delay before the first retry; each later one doubles, with jitter
 * (half to the full delay)
 * @param maxRetryDelay the longest delay between two attempts
 * @param retryFor how long after the event a failed delivery is retried; Stripe retries
 * for 3 days (https://docs.stripe.com/webhooks#retries)
 * @param disableAfter how long an endpoint may fail every attempt before it is disabled
 * @param rotationOverlap how long the previous signing secret still signs after a
 * rotation
 * @param allowLoopback whether endpoint URLs may resolve to loopback addresses: for local
 * development and tests only, never in production
 */
@Validated
@ConfigurationProperties("payonce.events")
public record EventProperties(@DefaultValue("30d") @DurationMin(hours = 1) Duration retention,
		@DefaultValue("true") boolean dispatch, @DefaultValue("1s") @DurationMin(millis = 10) Duration interval,
		@DefaultValue("20") @Min(1) @Max(500) int batchSize,
		@DefaultValue("2s") @DurationMin(millis = 10) Duration connectTimeout,
		@DefaultValue("5s") @DurationMin(millis = 10) Duration responseTimeout,
		@DefaultValue("30s") @DurationMin(millis = 1) Duration firstRetry,
		@DefaultValue("6h") @DurationMin(millis = 1) Duration maxRetryDelay,
		@DefaultValue("3d") @DurationMin(millis = 1) Duration retryFor,
		@DefaultValue("5d") @DurationMin(millis = 1) Duration disableAfter,
		@DefaultValue("24h") @DurationMin(millis = 0) Duration rotationOverlap,
		@DefaultValue("false") boolean allowLoopback) {

	/**
	 * How long a claimed delivery is kept from other dispatchers: the attempt's worst
	 * case and a margin. A dispatcher that dies mid-attempt leaves it due again after
	 * this.
	 * @return the claim's length
	 */
	public Duration claimFor() {
		return this.connectTimeout.plus(this.responseTimeout).multipliedBy(2).plusSeconds(5);
	}

}
