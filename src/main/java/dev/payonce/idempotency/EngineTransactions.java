package dev.payonce.idempotency;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * How the engine runs its transactions and auto-committed statements: each at READ
 * COMMITTED (docs/design.md section 3), and again after a short jittered pause when
 * PostgreSQL aborted it as a serialization failure (SQLSTATE {@code 40001}) or deadlock
 * loser (SQLSTATE {@code 40P01}), up to {@value #MAX_TRANSIENT_RETRIES} times; nothing of
 * an aborted try committed, so its steps simply run again.
 */
final class EngineTransactions {

	private static final Logger log = LoggerFactory.getLogger(EngineTransactions.class);

	/** Retries of a transaction that failed with SQLSTATE 40001 or 40P01. */
	static final int MAX_TRANSIENT_RETRIES = 4;

	/** The longest pause before such a retry; each pause is random up to it. */
	private static final Duration MAX_TRANSIENT_PAUSE = Duration.ofMillis(25);

	private final TransactionTemplate transactions;

	private final boolean declaresIsolation;

	/**
	 * @throws IllegalStateException if the pool hands out connections with auto-commit
	 * off ({@link SessionIsolation#requireAutoCommit})
	 */
	EngineTransactions(PlatformTransactionManager transactionManager, DataSource dataSource) {
		this.transactions = new TransactionTemplate(transactionManager);
		SessionIsolation.requireAutoCommit(dataSource);
		// The claim's guarantees are argued for READ COMMITTED (ON CONFLICT DO NOTHING
		// then a fresh read of the winner's row), whatever the database's default is.
		// Declared per transaction it costs a SHOW TRANSACTION ISOLATION LEVEL round trip
		// each time (Spring asks the driver for the session's level), so it is declared
		// only when the pool does not pin every session to it.
		this.declaresIsolation = !SessionIsolation.pinnedToReadCommitted(dataSource);
		if (this.declaresIsolation) {
			log.info("Engine transactions declare READ COMMITTED each time: the connection pool is not set up to "
					+ "keep every session at READ COMMITTED (docs/design.md section 3)");
			this.transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
		}
	}

	/**
	 * Whether each engine transaction declares READ COMMITTED itself, because the pool
	 * does not keep every session at that level ({@link SessionIsolation}); an
	 * auto-committed statement then does not run at a known level.
	 */
	boolean declaresIsolation() {
		return this.declaresIsolation;
	}

	/**
	 * Runs one READ COMMITTED transaction, again after a jittered pause when PostgreSQL
	 * aborted it as a serialization failure or deadlock loser (nothing of it committed).
	 * @throws TransientDatabaseConflict when every try failed so
	 */
	<T> @Nullable T inTransaction(TransactionCallback<T> work) {
		return retryingConflicts(() -> this.transactions.execute(work));
	}

	/**
	 * Runs {@code work} (one transaction, or one auto-committed statement) again after a
	 * jittered pause when PostgreSQL aborted it as a serialization failure or deadlock
	 * loser (nothing of it committed).
	 * @throws TransientDatabaseConflict when every try failed so
	 */
	<T> @Nullable T retryingConflicts(Supplier<@Nullable T> work) {
		for (int attempt = 0;; attempt++) {
			try {
				return work.get();
			}
			catch (RuntimeException ex) {
				if (!isTransientConflict(ex)) {
					throw ex;
				}
				if (attempt >= MAX_TRANSIENT_RETRIES) {
					throw new TransientDatabaseConflict(ex);
				}
				if (!pause(ThreadLocalRandom.current().nextLong(1, MAX_TRANSIENT_PAUSE.toNanos()))) {
					throw new TransientDatabaseConflict(ex);
				}
			}
		}
	}

	/** SQLSTATE 40001 (serialization_failure) or 40P01 (deadlock_detected). */
	static boolean isTransientConflict(Throwable ex) {
		return IdempotencyRecords.causedBySqlState(ex, "40001", "40P01");
	}

	/**
	 * Sleeps; {@code false} (the interrupt kept) if the thread was interrupted, so the
	 * caller stops waiting.
	 */
	static boolean pause(long nanos) {
		try {
			Thread.sleep(Duration.ofNanos(nanos));
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * A transaction lost to concurrent ones on every try: a conflict, not an outage.
	 */
	static final class TransientDatabaseConflict extends ConcurrencyFailureException {

		TransientDatabaseConflict(Throwable cause) {
			super("Transaction aborted by concurrent transactions on every try", cause);
		}

	}

}
