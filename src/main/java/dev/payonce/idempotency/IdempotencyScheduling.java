package dev.payonce.idempotency;

import java.util.function.BooleanSupplier;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

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
class IdempotencyScheduling extends StoppableJob {

	private final IdempotencyCleanup cleanup;

	IdempotencyScheduling(IdempotencyCleanup cleanup, IdempotencyProperties properties) {
		super("retention", properties.cleanup().interval());
		this.cleanup = cleanup;
	}

	@Override
	void run(BooleanSupplier stopRequested) {
		this.cleanup.deleteExpired(stopRequested);
	}

}
