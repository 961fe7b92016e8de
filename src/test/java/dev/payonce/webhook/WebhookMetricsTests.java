package dev.payonce.webhook;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link WebhookMetrics}: every webhook effect the README's metrics table lists exists
 * from start-up at zero, so a rate of it is never "no data".
 */
class WebhookMetricsTests {

	@Test
	void everyProviderEventEffectExistsAtZeroFromStartUp() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();

		new WebhookMetrics(registry);

		assertThat(registry.find("payonce.webhook.events").counters())
			.extracting((counter) -> counter.getId().getTag("effect"))
			.containsExactlyInAnyOrder("applied", "duplicate", "ignored", "in_progress", "deferred");
		assertThat(registry.find("payonce.webhook.events").counters())
			.allSatisfy((counter) -> assertThat(counter.count()).isZero());
	}

}
