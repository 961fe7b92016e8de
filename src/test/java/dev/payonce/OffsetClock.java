package dev.payonce;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The system UTC clock plus an offset a test can move forward, to let a lease run out
 * without waiting for it.
 */
public final class OffsetClock extends Clock {

	private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

	/**
	 * Moves this clock forward.
	 * @param duration how far
	 */
	public void advance(Duration duration) {
		this.offset.updateAndGet((current) -> current.plus(duration));
	}

	/**
	 * Moves this clock forward, and the database's too as far as the idempotency engine
	 * can tell: leases and stored responses are judged by the database's clock
	 * (docs/design.md section 4, "One clock for leases"), so every record's
	 * {@code locked_until} and {@code expires_at} move back by as much, as if that much
	 * time had passed.
	 * @param duration how far
	 * @param jdbc the database the engine uses
	 */
	public void advance(Duration duration, JdbcClient jdbc) {
		advance(duration);
		jdbc.sql("""
				UPDATE idempotency_records
				SET locked_until = locked_until - ? * INTERVAL '1 microsecond',
				    expires_at = expires_at - ? * INTERVAL '1 microsecond'
				""").params(duration.toNanos() / 1000, duration.toNanos() / 1000).update();
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		if (!ZoneOffset.UTC.equals(zone)) {
			throw new IllegalArgumentException("OffsetClock is UTC only, not " + zone);
		}
		return this;
	}

	@Override
	public Instant instant() {
		return Instant.now().plus(this.offset.get());
	}

	/**
	 * Makes an {@link OffsetClock} the application's clock; import it into a test's
	 * context.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	public static class Installed {

		@Bean
		@Primary
		OffsetClock offsetClock() {
			return new OffsetClock();
		}

	}

}
