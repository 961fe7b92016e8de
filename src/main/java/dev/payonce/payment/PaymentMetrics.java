package dev.payonce.payment;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

/**
 * The payment module's meters: {@code payonce.payments} (payments that reached a final
 * status, by status), {@code payonce.webhook.events} (webhook deliveries by effect), and
 * {@code payonce.payments.succeeded.after.decline} and
 * {@code payonce.refunds.failed.after.success} (the provider's late word against a final
 * answer, docs/design.md section 10). Every series exists from start-up, so a rate of it
 * is never "no data". Tags carry no identifiers, so cardinality stays fixed. Each meter
 * is looked up in the registry once and kept: a registry lookup (tags sorted, meter
 * filters applied, map searched) on every payment cost more than the increment itself.
 */
@Component
class PaymentMetrics {

	private final MeterRegistry meters;

	/** The meters already registered, by name and tag values. */
	private final Map<String, Counter> counters = new ConcurrentHashMap<>();

	private final Counter succeededAfterDecline;

	private final Counter failedAfterSuccess;

	PaymentMetrics(MeterRegistry meters) {
		this.meters = meters;
		this.succeededAfterDecline = Counter.builder("payonce.payments.succeeded.after.decline")
			.description("Payments answered DECLINED whose charge the provider later reports succeeded")
			.register(meters);
		this.failedAfterSuccess = Counter.builder("payonce.refunds.failed.after.success")
			.description("Refunds recorded SUCCEEDED that the provider later reports failed")
			.register(meters);
		for (PaymentStatus status : PaymentStatus.values()) {
			if (status != PaymentStatus.PENDING) {
				payments(status);
			}
		}
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

	void paymentFinished(PaymentStatus status) {
		payments(status).increment();
	}

	void webhookEvent(WebhookEffect effect) {
		webhookEvents(switch (effect) {
			case WebhookEffect.Applied applied -> "applied";
			case WebhookEffect.Duplicate duplicate -> "duplicate";
			case WebhookEffect.Ignored ignored -> "ignored";
			case WebhookEffect.InProgress inProgress -> "in_progress";
			case WebhookEffect.Deferred deferred -> "deferred";
		}).increment();
	}

	private Counter webhookEvents(String effect) {
		return this.counters.computeIfAbsent("webhook:" + effect,
				(name) -> Counter.builder("payonce.webhook.events")
					.description("Provider webhook deliveries by effect")
					.tag("effect", effect)
					.register(this.meters));
	}

	private Counter payments(PaymentStatus status) {
		return this.counters.computeIfAbsent("payments:" + status.name(),
				(name) -> Counter.builder("payonce.payments")
					.description("Payments that reached a final status")
					.tag("status", status.name().toLowerCase(Locale.ROOT))
					.register(this.meters));
	}

}
