package dev.payonce.webhook;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

import dev.payonce.provider.ProviderEventEffect;

/**
 * The webhook module's meters: {@code payonce.webhook.events} (webhook deliveries by
 * effect), and {@code payonce.payments.succeeded.after.decline} and
 * {@code payonce.refunds.failed.after.success} (the provider's late word against a final
 * answer, which only its events bring, docs/design.md section 10). Every series exists
 * from start-up, so a rate of it is never "no data"; tags carry no identifiers. Each
 * meter is looked up in the registry once and kept.
 */
@Component
class WebhookMetrics {

	private final MeterRegistry meters;

	/** The meters already registered, by tag value. */
	private final Map<String, Counter> counters = new ConcurrentHashMap<>();

	private final Counter succeededAfterDecline;

	private final Counter failedAfterSuccess;

	WebhookMetrics(MeterRegistry meters) {
		this.meters = meters;
		this.succeededAfterDecline = Counter.builder("payonce.payments.succeeded.after.decline")
			.description("Payments answered DECLINED whose charge the provider later reports succeeded")
			.register(meters);
		this.failedAfterSuccess = Counter.builder("payonce.refunds.failed.after.success")
			.description("Refunds recorded SUCCEEDED that the provider later reports failed")
			.register(meters);
		for (String effect : new String[] { "applied", "duplicate", "ignored", "in_progress", "deferred" }) {
			webhookEvents(effect);
		}
	}

	/**
	 * A payment Payonce answered DECLINED whose charge the provider reports succeeded
	 * ({@code payonce.payments.succeeded.after.decline}; an alert fires on any increase:
	 * an operator must refund or fulfil it, docs/design.md section 10).
	 */
	void paymentSucceededAfterDecline() {
		this.succeededAfterDecline.increment();
	}

	/**
	 * A refund Payonce recorded SUCCEEDED that the provider reports failed afterwards
	 * ({@code payonce.refunds.failed.after.success}); its amount is refundable again.
	 */
	void refundFailedAfterSuccess() {
		this.failedAfterSuccess.increment();
	}

	void webhookEvent(ProviderEventEffect effect) {
		webhookEvents(switch (effect) {
			case ProviderEventEffect.Applied applied -> "applied";
			case ProviderEventEffect.Duplicate duplicate -> "duplicate";
			case ProviderEventEffect.Ignored ignored -> "ignored";
			case ProviderEventEffect.InProgress inProgress -> "in_progress";
			case ProviderEventEffect.Deferred deferred -> "deferred";
		}).increment();
	}

	private Counter webhookEvents(String effect) {
		return this.counters.computeIfAbsent(effect,
				(name) -> Counter.builder("payonce.webhook.events")
					.description("Provider webhook deliveries by effect")
					.tag("effect", effect)
					.register(this.meters));
	}

}
