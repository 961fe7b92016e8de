package dev.payonce.idempotency;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

/**
 * Runs {@link IdempotencyCleanup} every {@code payonce.idempotency.cleanup.interval}
 * unless {@code payonce.idempotency.cleanup.enabled=false}.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
@ConditionalOnBooleanProperty(name = "payonce.idempotency.cleanup.enabled", matchIfMissing = true)
class IdempotencyScheduling implements SchedulingConfigurer {

	private final IdempotencyCleanup cleanup;

	private final IdempotencyProperties properties;

	IdempotencyScheduling(IdempotencyCleanup cleanup, IdempotencyProperties properties) {
		this.cleanup = cleanup;
		this.properties = properties;
	}

	@Override
	public void configureTasks(ScheduledTaskRegistrar registrar) {
		registrar.addFixedDelayTask(this.cleanup::deleteExpired, this.properties.cleanup().interval());
	}

}
