package dev.payonce.idempotency;

import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

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
class ReconciliationScheduling implements SchedulingConfigurer, SmartLifecycle {

	private final IdempotencyReconciler reconciler;

	private final ReconciliationProperties properties;

	/** Runs hold the read lock; stopping takes the write lock to wait for them. */
	private final ReadWriteLock runs = new ReentrantReadWriteLock();

	private volatile boolean stopping;

	private volatile boolean running;

	ReconciliationScheduling(IdempotencyReconciler reconciler, ReconciliationProperties properties) {
		this.reconciler = reconciler;
		this.properties = properties;
	}

	@Override
	public void configureTasks(ScheduledTaskRegistrar registrar) {
		registrar.addFixedDelayTask(this::reconcile, this.properties.interval());
	}

	private void reconcile() {
		this.runs.readLock().lock();
		try {
			if (!this.stopping) {
				this.reconciler.reconcile(() -> this.stopping);
			}
		}
		finally {
			this.runs.readLock().unlock();
		}
	}

	@Override
	public void start() {
		this.stopping = false;
		this.running = true;
	}

	@Override
	public void stop() {
		this.stopping = true;
		awaitRun();
	}

	@Override
	public void stop(Runnable callback) {
		this.stopping = true;
		Thread.ofVirtual().name("reconciliation-stop").start(() -> {
			awaitRun();
			callback.run();
		});
	}

	private void awaitRun() {
		this.runs.writeLock().lock();
		this.runs.writeLock().unlock();
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
