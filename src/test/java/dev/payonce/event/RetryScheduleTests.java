package dev.payonce.event;

import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/events.md, "Delivery": the delay after each failed attempt doubles from
 * {@code first-retry} up to {@code max-retry-delay}, jittered between half and all of it.
 */
class RetryScheduleTests {

	@Test
	void delaysDoubleUpToTheMaximumWithJitterBetweenHalfAndAll() {
		EventProperties properties = new EventProperties(Duration.ofDays(30), false, Duration.ofSeconds(1), 20,
				Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofHours(6),
				Duration.ofDays(3), Duration.ofDays(5), Duration.ofHours(24), false);
		EventDispatcher dispatcher = new EventDispatcher(null, null, properties, null,
				new EndpointAddresses(HostResolver.system(), false), (addresses) -> {
				}, new SimpleMeterRegistry());

		for (int attempt = 1; attempt <= 60; attempt++) {
			long full = Math.min(Duration.ofHours(6).toMillis(),
					Duration.ofSeconds(30).toMillis() << Math.min(attempt - 1, 40));
			for (int draw = 0; draw < 50; draw++) {
				assertThat(dispatcher.retryDelay(attempt).toMillis()).as("attempt %d", attempt)
					.isBetween(full / 2, full);
			}
		}
	}

}
