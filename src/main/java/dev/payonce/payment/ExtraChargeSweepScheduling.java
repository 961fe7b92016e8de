package dev.payonce.payment;

import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataAccessException;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.transaction.TransactionException;

/**
 * Runs {@link ExtraChargeSweep} every five minutes, on the instances that run
 * reconciliation ({@code payonce.reconciliation.enabled}, default on). An extra charge is
 * found within minutes of the provider's Search catching up with it, and every payment is
 * checked a few hundred times within Stripe's 24 hours of key retention. A run the
 * database cannot serve is logged at WARN (an outage, not a bug) and the next run tries
 * again.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
@ConditionalOnBooleanProperty(name = "payonce.reconciliation.enabled", matchIfMissing = true)
class ExtraChargeSweepScheduling {

	private static final Logger log = LoggerFactory.getLogger(ExtraChargeSweepScheduling.class);

	private final ExtraChargeSweep sweep;

	ExtraChargeSweepScheduling(ExtraChargeSweep sweep) {
		this.sweep = sweep;
	}

	@Scheduled(initialDelay = 1, fixedDelay = 5, timeUnit = TimeUnit.MINUTES)
	void sweep() {
		try {
			this.sweep.sweep();
		}
		catch (DataAccessException | TransactionException ex) {
			log.warn("The sweep for extra charges could not read the database ({}); the next run tries again",
					ex.getClass().getSimpleName());
		}
	}

}
