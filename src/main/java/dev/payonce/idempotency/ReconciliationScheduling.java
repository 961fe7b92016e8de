package dev.payonce.idempotency;

import java.util.function.BooleanSupplier;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Runs {@link IdempotencyReconciler} every {@code payonce.reconciliation.interval} unless
 * {@code payonce.reconciliation.enabled=false}.
 *
 * <p>
 * On shutdown, a run in progress releases the leases of the records it has not settled
 * yet and ends after the record it is settling; no new run starts. The shutdown waits for
 * that (up to {@code spring.lifecycle.timeout-per-shutdown-phase}) before the connection
 * pool closes.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
@ConditionalOnBooleanProperty(name = "payonce.reconciliation.enabled", matchIfMissing = true)
class ReconciliationScheduling extends StoppableJob {

	private final IdempotencyReconciler reconciler;

	ReconciliationScheduling(IdempotencyReconciler reconciler, ReconciliationProperties properties) {
		super("reconciliation", properties.interval());
		this.reconciler = reconciler;
	}

	@Override
	void run(BooleanSupplier stopRequested) {
		this.reconciler.reconcile(stopRequested);
	}

}
