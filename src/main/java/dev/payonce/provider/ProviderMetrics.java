package dev.payonce.provider;

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
 * The provider's meters, shared by every operation that calls it:
 * {@code payonce.provider.calls} (a timer of provider calls by operation and outcome) and
 * {@code payonce.provider.duplicates} (extra charges and refunds the provider holds, by
 * operation and what the sweep did, docs/design.md section 5). Tags carry no identifiers,
 * so cardinality stays fixed; every series exists from start-up. Each meter is looked up
 * in the registry once and kept: a registry lookup (tags sorted, meter filters applied,
 * map searched) on every call cost more than the increment itself.
 */
@Component
public class ProviderMetrics {

	private static final Logger log = LoggerFactory.getLogger(ProviderMetrics.class);

	private final MeterRegistry meters;

	/** The meters already registered, by name and tag values. */
	private final Map<String, Counter> counters = new ConcurrentHashMap<>();

	private final Map<String, Timer> timers = new ConcurrentHashMap<>();

	ProviderMetrics(MeterRegistry meters) {
		this.meters = meters;
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
	public GatewayResult providerCall(String operation, Object subject, Supplier<GatewayResult> call) {
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
	 * Registers an operation's final-status counters,
	 * {@code payonce.<operation>s{status}}, so every series exists from start-up.
	 * @param operation the operation's name, for example {@code payment}
	 */
	public void finishedSeries(String operation) {
		for (ProviderResource.Outcome outcome : ProviderResource.Outcome.values()) {
			finishedCounter(operation, outcome);
		}
	}

	/**
	 * Counts one resource that reached a final status ({@code payonce.payments},
	 * {@code payonce.refunds}, by status).
	 * @param operation the operation's name
	 * @param outcome the final status
	 */
	public void finished(String operation, ProviderResource.Outcome outcome) {
		finishedCounter(operation, outcome).increment();
	}

	private Counter finishedCounter(String operation, ProviderResource.Outcome outcome) {
		String status = outcome.name().toLowerCase(Locale.ROOT);
		return this.counters.computeIfAbsent("finished:" + operation + ":" + status,
				(name) -> Counter.builder("payonce." + operation + "s")
					.description(operation.substring(0, 1).toUpperCase(Locale.ROOT) + operation.substring(1)
							+ "s that reached a final status")
					.tag("status", status)
					.register(this.meters));
	}

	/**
	 * Counts one extra charge or refund the provider holds (a bug: the promise is one).
	 * @param operation {@code charge} or {@code refund}
	 * @param action what the sweep did: {@code canceled}, {@code refunded},
	 * {@code not_reversed} (counted on every sweep that tries), {@code reported}
	 */
	public void duplicate(String operation, String action) {
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

	private static String outcome(GatewayResult result) {
		return switch (result) {
			case GatewayResult.Approved approved -> "approved";
			case GatewayResult.Declined declined -> "declined";
			case GatewayResult.NotAttempted notAttempted -> "not_attempted";
			case GatewayResult.Unknown unknown -> "unknown";
		};
	}

}
