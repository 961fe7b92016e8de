package dev.payonce.provider;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.payonce.client.ClientId;
import dev.payonce.idempotency.IdempotencyScope;

/**
 * What every operation on the provider (payments, refunds, webhook events) shares beyond
 * the engine: the time its rows are stamped with, the engine scope a client's keys live
 * in, and work that runs only once a transaction committed (a log line, a metric).
 * Thread-safe.
 */
@Component
public class OperationContext {

	private final Clock clock;

	OperationContext(Clock clock) {
		this.clock = clock;
	}

	/**
	 * Now, as a row stores it.
	 * @return the clock's instant, truncated to microseconds
	 */
	public Instant now() {
		// PostgreSQL keeps microseconds; a receipt must read the same before and after a
		// reload.
		return this.clock.instant().truncatedTo(ChronoUnit.MICROS);
	}

	/**
	 * The engine's scope of a client's keys.
	 * @param clientId the client
	 * @return the scope with the client's id
	 */
	public static IdempotencyScope scope(ClientId clientId) {
		return new IdempotencyScope(clientId.value());
	}

	/**
	 * Runs {@code action} once the current transaction has committed.
	 * @param action what to run; not run if the transaction rolls back
	 */
	public static void afterCommit(Runnable action) {
		TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
			@Override
			public void afterCommit() {
				action.run();
			}
		});
	}

}
