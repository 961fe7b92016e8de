package dev.payonce.idempotency;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

/**
 * The engine's meters, tagged by operation: {@code payonce.idempotency.claims} (every
 * claim by outcome) and {@code payonce.reconciliation.outcomes} (what the reconciler
 * settled); and the gauges of ended leases, {@code payonce.idempotency.leases.expired}
 * (how many IN_PROGRESS records are past their lease by the database's clock) and
 * {@code payonce.idempotency.leases.expired.oldest} (how long ago the longest-ended one
 * ended). Tags carry no identifiers, so cardinality stays fixed: a handful of operations
 * times a handful of outcomes. Each meter is looked up in the registry once and kept (a
 * registry lookup on every claim cost more than the increment).
 */
@Component
class IdempotencyMetrics {

	static final List<String> CLAIM_OUTCOMES = List.of("acquired", "takeover", "replayed", "mismatch", "in_progress",
			"refused");

	static final List<String> RECONCILIATION_OUTCOMES = List.of("found", "failed", "released");

	private final MeterRegistry meters;

	/** The meters already registered, by name, operation and outcome. */
	private final Map<String, Counter> counters = new ConcurrentHashMap<>();

	IdempotencyMetrics(MeterRegistry meters, RecordRetention retention) {
		this.meters = meters;
		Gauge.builder("payonce.idempotency.leases.expired", retention, RecordRetention::countExpiredLeases)
			.description(
					"IN_PROGRESS idempotency records whose lease has ended: work left for a retry or the reconciler")
			.register(meters);
		Gauge
			.builder("payonce.idempotency.leases.expired.oldest", retention,
					(records) -> records.oldestExpiredLease().map((ago) -> ago.toMillis() / 1000.0).orElse(0.0))
			.description("How long ago the longest-ended lease of an IN_PROGRESS record ended; 0 if none has. "
					+ "Above stale-after plus a few reconciler intervals, the reconciler is not finishing it")
			.baseUnit("seconds")
			.register(meters);
	}

	/**
	 * Registers every series of an operation at zero, so that a rate is never "no data".
	 */
	void register(String operation) {
		CLAIM_OUTCOMES.forEach((outcome) -> claims(operation, outcome));
		RECONCILIATION_OUTCOMES.forEach((outcome) -> reconciliation(operation, outcome));
	}

	void claimed(String operation, String outcome) {
		claims(operation, outcome).increment();
	}

	void reconciled(String operation, String outcome) {
		reconciliation(operation, outcome).increment();
	}

	private Counter claims(String operation, String outcome) {
		return this.counters.computeIfAbsent("claims:" + operation + ":" + outcome,
				(name) -> Counter.builder("payonce.idempotency.claims")
					.description("Claims of idempotency keys by operation and outcome")
					.tag("operation", operation)
					.tag("outcome", outcome)
					.register(this.meters));
	}

	private Counter reconciliation(String operation, String outcome) {
		return this.counters.computeIfAbsent("reconciliation:" + operation + ":" + outcome,
				(name) -> Counter.builder("payonce.reconciliation.outcomes")
					.description("Stale records the reconciler settled, by operation and outcome")
					.tag("operation", operation)
					.tag("outcome", outcome)
					.register(this.meters));
	}

}
