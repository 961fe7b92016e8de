package dev.payonce.idempotency;

import java.time.Duration;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.transaction.TransactionException;

/**
 * A job that runs at a fixed delay and stops cleanly: on shutdown no new run starts, and
 * a run in progress is told to stop (its {@code stopRequested} turns {@code true}) and is
 * waited for, up to {@code spring.lifecycle.timeout-per-shutdown-phase}, before the
 * connection pool closes (docs/design.md, graceful shutdown). What a run does once told
 * to stop (finish its batch, release its leases) is the job's own.
 *
 * <p>
 * A run that fails because the database cannot be reached or breaks off (a restart, a
 * terminated session) is logged at {@code WARN} with exception types only, and the next
 * run starts after the interval as usual: an outage is an operational event, not a bug
 * (docs/design.md, "The database goes away"). Any other failure still reaches the
 * scheduler's error handler, which logs it at {@code ERROR}.
 */
abstract class StoppableJob implements SchedulingConfigurer, SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(StoppableJob.class);

	private final String name;

	private final Duration interval;

	/** Runs hold the read lock; stopping takes the write lock to wait for them. */
	private final ReadWriteLock runs = new ReentrantReadWriteLock();

	private volatile boolean stopping;

	private volatile boolean running;

	/**
	 * @param name the job's name, for the thread that waits for it on shutdown
	 * @param interval the delay between the end of one run and the start of the next
	 */
	StoppableJob(String name, Duration interval) {
		this.name = name;
		this.interval = interval;
	}

	/**
	 * One run of the job.
	 * @param stopRequested turns {@code true} once shutdown has begun
	 */
	abstract void run(BooleanSupplier stopRequested);

	@Override
	public void configureTasks(ScheduledTaskRegistrar registrar) {
		registrar.addFixedDelayTask(this::runUnlessStopping, this.interval);
	}

	private void runUnlessStopping() {
		this.runs.readLock().lock();
		try {
			if (!this.stopping) {
				run(() -> this.stopping);
			}
		}
		catch (RuntimeException ex) {
			if (!isDatabaseFailure(ex)) {
				throw ex;
			}
			log.warn("The {} run stopped: database unavailable ({} caused by {}); the next run tries again", this.name,
					ex.getClass().getName(), NestedExceptionUtils.getMostSpecificCause(ex).getClass().getName());
		}
		finally {
			this.runs.readLock().unlock();
		}
	}

	/**
	 * Whether {@code ex} is a database failure: a {@link DataAccessException} or a
	 * {@link TransactionException} anywhere in its cause chain.
	 */
	static boolean isDatabaseFailure(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof DataAccessException || cause instanceof TransactionException) {
				return true;
			}
		}
		return false;
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
		Thread.ofVirtual().name(this.name + "-stop").start(() -> {
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
