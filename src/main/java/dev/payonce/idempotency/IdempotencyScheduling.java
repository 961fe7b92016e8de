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
 * Runs {@link IdempotencyCleanup} every {@code payonce.idempotency.cleanup.interval}
 * unless {@code payonce.idempotency.cleanup.enabled=false}.
 *
 * <p>
 * On shutdown, a run in progress finishes the batch it is deleting (one short
 * transaction) and starts no other; no new run starts. The shutdown waits for that (up to
 * {@code spring.lifecycle.timeout-per-shutdown-phase}) before the connection pool closes.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
@ConditionalOnBooleanProperty(name = "payonce.idempotency.cleanup.enabled", matchIfMissing = true)
class IdempotencyScheduling implements SchedulingConfigurer, SmartLifecycle {

	private final IdempotencyCleanup cleanup;

	private final IdempotencyProperties properties;

	/** Runs hold the read lock; stopping takes the write lock to wait for them. */
	private final ReadWriteLock runs = new ReentrantReadWriteLock();

	private volatile boolean stopping;

	private volatile boolean running;

	IdempotencyScheduling(IdempotencyCleanup cleanup, IdempotencyProperties properties) {
		this.cleanup = cleanup;
		this.properties = properties;
	}

	@Override
	public void configureTasks(ScheduledTaskRegistrar registrar) {
		registrar.addFixedDelayTask(this::deleteExpired, this.properties.cleanup().interval());
	}

	private void deleteExpired() {
		this.runs.readLock().lock();
		try {
			if (!this.stopping) {
				this.cleanup.deleteExpired(() -> this.stopping);
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
		Thread.ofVirtual().name("retention-stop").start(() -> {
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
