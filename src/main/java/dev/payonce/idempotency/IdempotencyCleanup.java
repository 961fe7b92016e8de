package dev.payonce.idempotency;

import java.util.function.BooleanSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The retention job (docs/design.md section 4, step 6): deletes COMPLETED records whose
 * {@code expires_at} has passed, in batches of
 * {@code payonce.idempotency.cleanup.batch-size}, each in its own short transaction.
 * Never deletes an IN_PROGRESS record; payments are never deleted. Safe on several
 * instances at once ({@code FOR UPDATE SKIP LOCKED}: each row is deleted once, and no
 * instance waits on another or on a claim).
 */
@Component
class IdempotencyCleanup {

	private static final Logger log = LoggerFactory.getLogger(IdempotencyCleanup.class);

	private final RecordRetention records;

	private final TransactionTemplate transactions;

	private final IdempotencyProperties properties;

	private final Counter deleted;

	IdempotencyCleanup(RecordRetention records, PlatformTransactionManager transactionManager,
			IdempotencyProperties properties, MeterRegistry meters) {
		this.records = records;
		this.transactions = new TransactionTemplate(transactionManager);
		this.properties = properties;
		this.deleted = Counter.builder("payonce.idempotency.cleanup.deleted")
			.description("Expired completed idempotency records deleted by the retention job")
			.register(meters);
		Gauge.builder("payonce.idempotency.cleanup.overdue", this, IdempotencyCleanup::overdueSeconds)
			.description("How long the oldest expired COMPLETED record has waited for deletion; 0 if none. "
					+ "Growing means retention is falling behind or runs on no instance")
			.baseUnit("seconds")
			.register(meters);
	}

	/**
	 * How long the oldest expired COMPLETED record has been past its {@code expires_at},
	 * by the database's clock.
	 * @return seconds, or 0 if no completed record is past its expiry
	 */
	public double overdueSeconds() {
		return this.records.oldestExpiry().map((overdue) -> overdue.toMillis() / 1000.0).orElse(0.0);
	}

	/**
	 * One run: deletes batches until a batch finds fewer expired records than its size.
	 * @return how many records this run deleted
	 */
	public long deleteExpired() {
		return deleteExpired(() -> false);
	}

	/**
	 * One run that can be cut short: once {@code stopRequested} answers true, no further
	 * batch starts. Each batch is its own transaction, so a run stopped between batches
	 * leaves nothing half done.
	 * @param stopRequested asked before each batch
	 * @return how many records this run deleted
	 */
	public long deleteExpired(BooleanSupplier stopRequested) {
		int batchSize = this.properties.cleanup().batchSize();
		long total = 0;
		boolean stopped = false;
		while (true) {
			if (stopRequested.getAsBoolean()) {
				stopped = true;
				break;
			}
			Integer batch = this.transactions.execute((status) -> this.records.deleteExpired(batchSize));
			int count = (batch != null) ? batch : 0;
			total += count;
			this.deleted.increment(count);
			if (count < batchSize) {
				break;
			}
		}
		if (total > 0) {
			log.info("Retention deleted {} expired idempotency records", total);
		}
		if (stopped) {
			log.info("Retention stopped for shutdown between batches; the rest waits for the next run");
		}
		return total;
	}

}
