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
