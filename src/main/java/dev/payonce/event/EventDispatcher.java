package dev.payonce.event;

import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Delivers merchant events to webhook endpoints (docs/events.md, "Delivery"): each run
 * fans new events out into deliveries, claims due ones ({@link Deliveries}), signs and
 * POSTs each outside any transaction, and records the attempt. A 2xx delivers it; any
 * other answer, a timeout, a reset or a refused address is a failed attempt, retried
 * after an exponential delay with jitter (half to the full delay, doubling from
 * {@code first-retry} up to {@code max-retry-delay}) until {@code retry-for} after the
 * event; an endpoint that failed every attempt for {@code disable-after} is disabled.
 * Delivery is at least once: a receiver deduplicates by {@code webhook-id}, the event's
 * id. No log line carries a secret, a URL or a payload. Thread-safe; any number of
 * instances.
 */
public class EventDispatcher implements DisposableBean {

	private static final Logger log = LoggerFactory.getLogger(EventDispatcher.class);

	private final Deliveries deliveries;

	private final WebhookEndpoints endpoints;

	private final EventProperties properties;

	private final TransactionTemplate tx;

	private final WebhookSender sender;

	private final Map<String, Counter> attempts = new LinkedHashMap<>();

	private final Counter disabled;

	private final AtomicLong oldestUndeliveredMillis = new AtomicLong();

	EventDispatcher(Deliveries deliveries, WebhookEndpoints endpoints, EventProperties properties,
			TransactionTemplate tx, EndpointAddresses addresses, Consumer<List<InetAddress>> connecting,
			MeterRegistry meters) {
		this.deliveries = deliveries;
		this.endpoints = endpoints;
		this.properties = properties;
		this.tx = tx;
		this.sender = new WebhookSender(properties, addresses, connecting);
		for (String outcome : List.of("delivered", "failed", "gave_up")) {
			this.attempts.put(outcome,
					Counter.builder("payonce.events.delivery.attempts")
						.description("Webhook delivery attempts by outcome: delivered (2xx), failed (retried), gave_up")
						.tag("outcome", outcome)
						.register(meters));
		}
		this.disabled = Counter.builder("payonce.events.endpoints.disabled")
			.description("Webhook endpoints disabled after failing every attempt for disable-after")
			.register(meters);
		Gauge.builder("payonce.events.oldest.undelivered.age", this.oldestUndeliveredMillis, (v) -> v.get() / 1000.0)
			.description("Age of the oldest event some endpoint has not yet received, as of the last run")
			.baseUnit("seconds")
			.register(meters);
		Gauge.builder("payonce.events.endpoints.disabled.failing", endpoints, WebhookEndpoints::disabledForFailingCount)
			.description("Webhook endpoints currently disabled for failing")
			.register(meters);
	}

	/**
	 * One run: fans out, then delivers what is due.
	 * @return how many delivery attempts were made
	 */
	public int run() {
		this.tx.executeWithoutResult((status) -> this.deliveries.fanOut(this.properties.batchSize() * 5));
		List<Deliveries.Claimed> claimed = this.tx
			.execute((status) -> this.deliveries.claim(this.properties.batchSize(), this.properties.claimFor()));
		int made = 0;
		for (Deliveries.Claimed delivery : (claimed != null) ? claimed : List.<Deliveries.Claimed>of()) {
			try {
				made += deliver(delivery) ? 1 : 0;
			}
			catch (RuntimeException ex) {
				// A real bug or the database: the claim runs out and the delivery is due
				// again.
				log.error("Webhook delivery {} of event {} failed unexpectedly; due again after its claim",
						delivery.id(), delivery.event(), ex);
			}
		}
		this.oldestUndeliveredMillis.set(this.deliveries.oldestUndelivered().toMillis());
		return made;
	}

	private boolean deliver(Deliveries.Claimed delivery) {
		Optional<WebhookEndpoint> found = this.endpoints.find(delivery.endpoint());
		if (found.isEmpty() || !"ENABLED".equals(found.get().status())) {
			this.deliveries.parked(delivery.id());
			return false;
		}
		WebhookEndpoint endpoint = found.get();
		String body = "{\"id\":\"" + delivery.event() + "\",\"type\":\"" + delivery.type() + "\",\"createdAt\":\""
				+ delivery.createdAt() + "\",\"data\":" + delivery.payload() + "}";
		Map<String, String> headers = new LinkedHashMap<>();
		headers.put("webhook-id", delivery.event().toString());
		headers.put("webhook-timestamp", Long.toString(delivery.nowSeconds()));
		headers.put("webhook-signature",
				Signatures.sign(delivery.event().toString(), delivery.nowSeconds(), body, endpoint.signingSecrets()));
		WebhookSender.Attempt attempt = this.sender.send(URI.create(endpoint.url()), headers, body);
		this.tx.executeWithoutResult((status) -> record(delivery, attempt));
		return true;
	}

	private void record(Deliveries.Claimed delivery, WebhookSender.Attempt attempt) {
		this.deliveries.recordAttempt(delivery.id(), attempt);
		if (attempt.delivered()) {
			this.deliveries.delivered(delivery.id(), delivery.attempt(), delivery.endpoint());
			this.attempts.get("delivered").increment();
			return;
		}
		Duration retryIn = retryDelay(delivery.attempt());
		boolean givesUp = delivery.age().plus(retryIn).compareTo(this.properties.retryFor()) > 0;
		this.deliveries.failed(delivery.id(), delivery.attempt(), givesUp ? null : retryIn);
		this.attempts.get(givesUp ? "gave_up" : "failed").increment();
		log.info("Webhook delivery {} of event {} attempt {} failed ({}{}); {}", delivery.id(), delivery.event(),
				delivery.attempt(), attempt.errorKind(), (attempt.status() != null) ? " " + attempt.status() : "",
				givesUp ? "given up" : "retried in " + retryIn);
		if (this.deliveries.endpointFailed(delivery.endpoint(), this.properties.disableAfter())) {
			this.disabled.increment();
			log.warn("Webhook endpoint {} disabled: every attempt failed for {}", delivery.endpoint(),
					this.properties.disableAfter());
		}
	}

	/**
	 * The delay before attempt {@code attempt + 1}: {@code first-retry} doubled per
	 * attempt, at most {@code max-retry-delay}, then a random point between its half and
	 * itself (jitter, so endpoints recovering from an outage are not hit all at once).
	 * @param attempt the attempt that failed, from 1
	 * @return the delay
	 */
	Duration retryDelay(int attempt) {
		long first = this.properties.firstRetry().toMillis();
		long max = this.properties.maxRetryDelay().toMillis();
		long delay = (attempt >= 40) ? max : Math.min(max, first << Math.min(attempt - 1, 40));
		long half = delay / 2;
		return Duration.ofMillis(half + ThreadLocalRandom.current().nextLong(delay - half + 1));
	}

	/**
	 * Deletes events older than the retention, with their deliveries and attempts.
	 * @return how many events were deleted
	 */
	public int deleteExpired() {
		int total = 0;
		int deleted;
		do {
			deleted = this.deliveries.deleteOlderThan(this.properties.retention(), 1000);
			total += deleted;
		}
		while (deleted == 1000);
		return total;
	}

	@Override
	public void destroy() throws Exception {
		this.sender.close();
	}

}
