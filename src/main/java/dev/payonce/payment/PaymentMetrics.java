package dev.payonce.payment;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * The payment module's meters: {@code payonce.payments} (payments that reached a final
 * status, by status), {@code payonce.refunds} (the same for refunds),
 * {@code payonce.provider.calls} (a timer of provider calls by operation and outcome) and
 * {@code payonce.webhook.events} (webhook deliveries by effect),
 * {@code payonce.provider.duplicates} (extra charges and refunds the provider holds, by
 * operation and what the sweep did, docs/design.md section 5), and
 * {@code payonce.payments.succeeded.after.decline} and
 * {@code payonce.refunds.failed.after.success} (the provider's late word against a final
 * answer, docs/design.md section 10). Tags carry no identifiers, so cardinality stays
 * fixed. Each meter is looked up in the registry once and kept: a registry lookup (tags
 * sorted, meter filters applied, map searched) on every payment cost more than the
 * increment itself.
 */
@Component
class PaymentMetrics {

	private static final Logger log = LoggerFactory.getLogger(PaymentMetrics.class);

	private final MeterRegistry meters;

	/** The meters already registered, by name and tag values. */
	private final Map<String, Counter> counters = new ConcurrentHashMap<>();

	private final Map<String, Timer> timers = new ConcurrentHashMap<>();

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
		// Every series exists from start-up, so a rate of unknown outcomes is never "no
		// data".
		for (RefundStatus status : RefundStatus.values()) {
			if (status != RefundStatus.PENDING) {
				refunds(status);
			}
		}
		for (String action : new String[] { "canceled", "refunded", "not_reversed" }) {
			duplicates("charge", action);
		}
		duplicates("refund", "reported");
		for (String operation : new String[] { "charge", "lookup", "refund", "refund_lookup" }) {
			for (GatewayResult result : new GatewayResult[] { new GatewayResult.Approved("-"),
					new GatewayResult.Declined("-", "-"), new GatewayResult.NotAttempted("-"),
					new GatewayResult.Unknown("-") }) {
				providerCalls(operation, result);
			}
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

	void refundFinished(RefundStatus status) {
		refunds(status).increment();
	}

	private Counter refunds(RefundStatus status) {
		return this.counters.computeIfAbsent("refunds:" + status.name(),
				(name) -> Counter.builder("payonce.refunds")
					.description("Refunds that reached a final status")
					.tag("status", status.name().toLowerCase(Locale.ROOT))
					.register(this.meters));
	}

	/**
	 * Calls the provider once, timed into {@code payonce.provider.calls} by operation and
	 * outcome. A gateway must not throw; if one does, that is a bug, logged at ERROR, and
	 * the outcome is {@link GatewayResult.Unknown}: the provider may or may not have
	 * acted.
	 * @param operation the meter's {@code operation} tag ({@code charge}, {@code lookup},
	 * {@code refund}, {@code refund_lookup})
	 * @param subject what the call is about (a payment or refund id), for the log
	 * @param call the gateway call
	 * @return the gateway's answer, or {@code Unknown} if it threw
	 */
	GatewayResult providerCall(String operation, Object subject, Supplier<GatewayResult> call) {
		long started = System.nanoTime();
		GatewayResult result;
		try {
			result = call.get();
		}
		catch (RuntimeException ex) {
			log.error("Payment gateway threw on {} for {}", operation, subject, ex);
			result = new GatewayResult.Unknown(operation + " threw " + ex.getClass().getSimpleName());
		}
		providerCalls(operation, result).record(Duration.ofNanos(System.nanoTime() - started));
		return result;
	}

	private Timer providerCalls(String operation, GatewayResult result) {
		String outcome = outcome(result);
		return this.timers.computeIfAbsent(operation + ":" + outcome,
				(name) -> Timer.builder("payonce.provider.calls")
					.description("Calls to the payment provider by operation and outcome")
					.tag("operation", operation)
					.tag("outcome", outcome)
					.register(this.meters));
	}

	/**
	 * Counts one extra charge or refund the provider holds (a bug: the promise is one).
	 * @param operation {@code charge} or {@code refund}
	 * @param action what the sweep did: {@code canceled}, {@code refunded},
	 * {@code not_reversed} (counted on every sweep that tries), {@code reported}
	 */
	void duplicate(String operation, String action) {
		duplicates(operation, action).increment();
	}

	private Counter duplicates(String operation, String action) {
		return this.counters.computeIfAbsent("duplicates:" + operation + ":" + action,
				(name) -> Counter.builder("payonce.provider.duplicates")
					.description("Extra charges or refunds the provider holds for one payment or refund")
					.tag("operation", operation)
					.tag("action", action)
					.register(this.meters));
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

	private static String outcome(GatewayResult result) {
		return switch (result) {
			case GatewayResult.Approved approved -> "approved";
			case GatewayResult.Declined declined -> "declined";
			case GatewayResult.NotAttempted notAttempted -> "not_attempted";
			case GatewayResult.Unknown unknown -> "unknown";
		};
	}

}
