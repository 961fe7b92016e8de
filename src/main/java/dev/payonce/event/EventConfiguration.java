package dev.payonce.event;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Wires the dispatcher and its schedule: a run every {@code payonce.events.interval}
 * while {@code payonce.events.dispatch} is on, and the retention run hourly. A test may
 * give its own {@link HostResolver} bean (names resolved without DNS) and a
 * {@code Consumer<List<InetAddress>>} bean named {@code connectingTo} that sees every set
 * of addresses a delivery is allowed to connect to.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class EventConfiguration {

	private static final Logger log = LoggerFactory.getLogger(EventConfiguration.class);

	@Bean
	EndpointAddresses endpointAddresses(ObjectProvider<HostResolver> resolver, EventProperties properties) {
		if (properties.allowLoopback()) {
			log.warn("payonce.events.allow-loopback is on: webhook endpoints may name this machine; "
					+ "for development and tests only");
		}
		return new EndpointAddresses(resolver.getIfAvailable(HostResolver::system), properties.allowLoopback());
	}

	@Bean
	EventDispatcher eventDispatcher(Deliveries deliveries, WebhookEndpoints endpoints, EventProperties properties,
			PlatformTransactionManager transactions, EndpointAddresses addresses,
			ObjectProvider<Consumer<List<InetAddress>>> connectingTo, MeterRegistry meters) {
		return new EventDispatcher(deliveries, endpoints, properties, new TransactionTemplate(transactions), addresses,
				connectingTo.getIfAvailable(() -> (checked) -> {
				}), meters);
	}

	@Bean
	EventSchedule eventSchedule(EventDispatcher dispatcher, EventProperties properties) {
		return new EventSchedule(dispatcher, properties);
	}

	/** The dispatcher's and the retention's timers. */
	static final class EventSchedule {

		private final EventDispatcher dispatcher;

		private final EventProperties properties;

		EventSchedule(EventDispatcher dispatcher, EventProperties properties) {
			this.dispatcher = dispatcher;
			this.properties = properties;
		}

		@Scheduled(initialDelay = 1000, fixedDelayString = "${payonce.events.interval:1s}")
		void dispatch() {
			if (!this.properties.dispatch()) {
				return;
			}
			try {
				// Drains what is due before the next pause.
				while (this.dispatcher.run() >= this.properties.batchSize()) {
					Thread.onSpinWait();
				}
			}
			catch (RuntimeException ex) {
				log.warn("Webhook dispatch run failed; the next run retries: {}", ex.getClass().getSimpleName());
			}
		}

		@Scheduled(initialDelay = 60, fixedDelay = 3600, timeUnit = TimeUnit.SECONDS)
		void retention() {
			try {
				int deleted = this.dispatcher.deleteExpired();
				if (deleted > 0) {
					log.info("Event retention deleted {} events older than {}", deleted, this.properties.retention());
				}
			}
			catch (RuntimeException ex) {
				log.warn("Event retention run failed; the next run retries: {}", ex.getClass().getSimpleName());
			}
		}

	}

}
