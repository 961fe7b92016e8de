package dev.payonce.idempotency;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

/**
 * Runs {@link IdempotencyReconciler} every {@code payonce.reconciliation.interval} unless
 * {@code payonce.reconciliation.enabled=false}.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
@ConditionalOnBooleanProperty(name = "payonce.reconciliation.enabled", matchIfMissing = true)
class ReconciliationScheduling implements SchedulingConfigurer {

	private final IdempotencyReconciler reconciler;

	private final ReconciliationProperties properties;

	ReconciliationScheduling(IdempotencyReconciler reconciler, ReconciliationProperties properties) {
		this.reconciler = reconciler;
		this.properties = properties;
	}

	@Override
	public void configureTasks(ScheduledTaskRegistrar registrar) {
		registrar.addFixedDelayTask(this.reconciler::reconcile, this.properties.interval());
	}

}
