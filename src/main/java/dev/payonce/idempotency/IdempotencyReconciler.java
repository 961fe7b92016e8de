package dev.payonce.idempotency;

import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.stereotype.Component;

import dev.payonce.idempotency.ReconciliationStep.Settlement;

/**
 * Finishes operations that nobody retried (docs/design.md section 4, step 5): for each
 * registered {@link ReconciliationStep}, takes over that operation's IN_PROGRESS records
 * whose lease ended more than {@code payonce.reconciliation.stale-after} (and at least
 * the step's {@link ReconciliationStep#settleTime() settle time}) ago, asks the step what
 * the provider knows (a lookup, never a second act), and completes the record fenced or
 * releases it.
 *
 * <p>
 * Safe on several instances at once: each stale record is taken over by one of them
 * ({@code FOR UPDATE SKIP LOCKED}), and every completion is fenced by the attempt number.
 * A step only ever sees records of its own operation.
 */
@Component
public class IdempotencyReconciler {

	private static final Logger log = LoggerFactory.getLogger(IdempotencyReconciler.class);

	private final IdempotencyService idempotency;

	private final List<ReconciliationStep> steps;

	private final ReconciliationProperties properties;

	private final IdempotencyMetrics metrics;

	private final KeyDigests keyDigests;

	IdempotencyReconciler(IdempotencyService idempotency, List<ReconciliationStep> steps,
			ReconciliationProperties properties, IdempotencyMetrics metrics, KeyDigests keyDigests) {
		this.keyDigests = keyDigests;
		this.idempotency = idempotency;
		this.steps = List.copyOf(steps);
		this.properties = properties;
		this.metrics = metrics;
		this.steps.forEach((step) -> metrics.register(step.operation()));
	}

	/**
	 * One run: for every registered operation, takes over at most {@code batch-size}
	 * stale records and settles each one.
	 * @return what this run did, summed over the operations
	 */
	public Report reconcile() {
		return reconcile(() -> false);
	}

	/**
	 * One run that can be cut short, for a shutdown: once {@code stopRequested} answers
	 * true, no further operation's records are taken over, and each record already taken
	 * over but not yet settled has its lease released at once instead of being looked up.
	 * The record being settled when the stop is requested is finished. A shutdown thus
	 * leaves no record held by a lease nobody works on, whatever its operation.
	 * @param stopRequested asked before each operation and before each record
	 * @return what this run did, summed over the operations
	 */
	public Report reconcile(BooleanSupplier stopRequested) {
		Report report = new Report(0, 0, 0, 0);
		for (ReconciliationStep step : this.steps) {
			if (stopRequested.getAsBoolean()) {
				break;
			}
			report = report.plus(reconcile(step, stopRequested));
		}
		return report;
	}

	/**
	 * One run for one operation's step.
	 * @param step the step to run; only its operation's records are taken over
	 * @return what this run did
	 */
	public Report reconcile(ReconciliationStep step) {
		return reconcile(step, () -> false);
	}

	/**
	 * One run for one operation's step that can be cut short, as
	 * {@link #reconcile(BooleanSupplier)} describes.
	 * @param step the step to run; only its operation's records are taken over
	 * @param stopRequested asked before each record
	 * @return what this run did
	 */
	public Report reconcile(ReconciliationStep step, BooleanSupplier stopRequested) {
		List<Lease> stale = this.idempotency.takeOverStale(step.operation(), staleAfter(step),
				this.properties.batchSize());
		int found = 0;
		int failed = 0;
		int released = 0;
		int releasedForShutdown = 0;
		for (Lease lease : stale) {
			String outcome;
			if (stopRequested.getAsBoolean()) {
				this.idempotency.release(lease);
				releasedForShutdown++;
				outcome = "released";
			}
			else {
				outcome = settleOrRelease(step, lease);
			}
			this.metrics.reconciled(step.operation(), outcome);
			switch (outcome) {
				case "found" -> found++;
				case "failed" -> failed++;
				default -> released++;
			}
		}
		if (releasedForShutdown > 0) {
			log.info("Reconciliation stopped for shutdown: {} leases of {} released at once", releasedForShutdown,
					step.operation());
		}
		Report report = new Report(stale.size(), found, failed, released);
		if (report.takenOver() > 0) {
			log.info("Reconciliation run for {}: {}", step.operation(), report);
		}
		return report;
	}

	/**
	 * One failure must not strand the rest of the batch under a lease nobody works on.
	 */
	private String settleOrRelease(ReconciliationStep step, Lease lease) {
		try (var scope = MDC.putCloseable("scope", lease.scope().value());
				var resource = MDC.putCloseable(lease.operation() + "Id", lease.resourceId().toString());
				var key = MDC.putCloseable("idempotencyKeyDigest",
						this.keyDigests.digest(lease.scope().value(), lease.key()))) {
			return settle(step, lease);
		}
		catch (RuntimeException ex) {
			if (!StoppableJob.isDatabaseFailure(ex)) {
				log.error("Reconciliation failed for {} {}; lease released for a later run", lease.operation(),
						lease.resourceId(), ex);
			}
			else {
				log.warn("Reconciliation of {} {} stopped: database unavailable ({} caused by {})", lease.operation(),
						lease.resourceId(), ex.getClass().getName(),
						NestedExceptionUtils.getMostSpecificCause(ex).getClass().getName());
			}
			releaseIfReachable(lease);
			return "released";
		}
	}

	/**
	 * Releases a lease whose settling failed, so a retry or the next run may take the
	 * record over at once; if the database cannot be reached for that either, the lease
	 * simply runs out (the record is then stale for the next run).
	 */
	private void releaseIfReachable(Lease lease) {
		try {
			this.idempotency.release(lease);
		}
		catch (RuntimeException ex) {
			if (!StoppableJob.isDatabaseFailure(ex)) {
				throw ex;
			}
			log.warn("Lease of {} {} left to run out: database unavailable ({})", lease.operation(), lease.resourceId(),
					ex.getClass().getName());
		}
	}

	private String settle(ReconciliationStep step, Lease lease) {
		return switch (step.settle(lease)) {
			case Settlement.Found found ->
				this.idempotency.complete(lease, found.step()).isPresent() ? "found" : "released";
			case Settlement.GaveUp gaveUp -> {
				log.warn("Reconciliation gave up on {} {}: the provider never acted on it", lease.operation(),
						lease.resourceId());
				yield this.idempotency.complete(lease, gaveUp.step()).isPresent() ? "failed" : "released";
			}
			case Settlement.Unsettled unsettled -> {
				this.idempotency.release(lease);
				yield "released";
			}
			case Settlement.Reattempt reattempt -> {
				log.info("Reconciliation prepared {} {} for another attempt: {}", lease.operation(), lease.resourceId(),
						reattempt.reason());
				this.idempotency.release(lease, reattempt.step());
				yield "released";
			}
		};
	}

	/**
	 * How long after its lease ended a record of the step's operation is left alone: at
	 * least the step's settle time, so that a lookup that finds nothing is proof.
	 */
	private Duration staleAfter(ReconciliationStep step) {
		Duration settle = step.settleTime();
		return (settle.compareTo(this.properties.staleAfter()) > 0) ? settle : this.properties.staleAfter();
	}

	/**
	 * What one reconciliation run did.
	 *
	 * @param takenOver stale records taken over
	 * @param found records the provider had an outcome for, completed with it
	 * @param failed records given up on, completed with a stored failure
	 * @param released records left for a retry or a later run
	 */
	public record Report(int takenOver, int found, int failed, int released) {

		Report plus(Report other) {
			return new Report(this.takenOver + other.takenOver, this.found + other.found, this.failed + other.failed,
					this.released + other.released);
		}

	}

}
