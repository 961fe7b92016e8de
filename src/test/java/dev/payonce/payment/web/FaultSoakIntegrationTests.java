package dev.payonce.payment.web;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.PaymentReconciler;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DESIGN.md section 6: provider timeouts, refusals and declines at every step make no
 * double charge, no lost payment and no key stuck past its lease. 2,400 payment requests
 * over 240 keys from 16 threads, with every simulator fault on at 10-15 %, declines on a
 * fifth of the keys, the reconciler running every 200 ms, and clients that retry on 409
 * and 503 until they get a final answer.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "payonce.gateway.simulator.latency=2ms", "payonce.gateway.simulator.refuse.rate=0.10",
				"payonce.gateway.simulator.error-before-charge.rate=0.10",
				"payonce.gateway.simulator.timeout-after-charge.rate=0.15", "payonce.gateway.simulator.timeout=2s",
				"payonce.reconciliation.lease-margin=1s", "payonce.idempotency.lease=4s",
				"payonce.reconciliation.give-up-after=10s", "payonce.reconciliation.interval=200ms",
				"payonce.reconciliation.stale-after=1s", "payonce.reconciliation.enabled=true" })
@Import(TestcontainersConfiguration.class)
// Closed after the class, so that its fast reconciler settles no other class's payments.
@DirtiesContext
class FaultSoakIntegrationTests {

	static final int KEYS = 400;

	static final int REQUESTS_PER_KEY = 6;

	static final int THREADS = 16;

	static final int MAX_TRIES = 1_000;

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	PaymentReconciler reconciler;

	@Test
	void faultsAndRetriesNeverChargeTwiceLoseAPaymentOrLeaveAKeyStuck() throws Exception {
		String run = UUID.randomUUID().toString();
		List<SoakKey> keys = new ArrayList<>();
		for (int i = 0; i < KEYS; i++) {
			keys.add(new SoakKey("soak-" + run + "-" + i, "order-soak-" + run + "-" + i, 100 + i, i % 5 == 0));
		}
		List<SoakKey> requests = new ArrayList<>();
		keys.forEach((key) -> requests.addAll(Collections.nCopies(REQUESTS_PER_KEY, key)));
		Collections.shuffle(requests, new Random(42));
		Map<String, List<Reply>> finals = new ConcurrentHashMap<>();
		Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
		Map<String, AtomicLong> problems = new ConcurrentHashMap<>();

		List<String> unfinished = drive(new PaymentsApi(this.port), new ConcurrentLinkedQueue<>(requests), finals,
				statuses, problems);
		this.reconciler.reconcile();

		assertThat(unfinished).isEmpty();
		for (SoakKey key : keys) {
			List<Reply> answers = finals.get(key.key());
			assertThat(answers).hasSize(REQUESTS_PER_KEY);
			assertThat(answers).allSatisfy((reply) -> {
				assertThat(reply.status()).isEqualTo(key.declines() ? 402 : 201);
				assertThat(reply.body()).isEqualTo(answers.get(0).body());
			});
			assertThat(answers.stream().filter((reply) -> reply.header("Idempotent-Replayed").isEmpty()).count())
				.isLessThanOrEqualTo(1);
		}
		assertThat(count("""
				SELECT count(*) FROM payments WHERE order_id LIKE ?""", "order-soak-" + run + "-%")).isEqualTo(KEYS);
		assertThat(count("""
				SELECT count(*) FROM (SELECT c.provider_idempotency_key FROM simulated_provider_charges c
				  JOIN payments p ON c.provider_idempotency_key = 'payonce-payment-' || p.id
				  WHERE p.order_id LIKE ? GROUP BY c.provider_idempotency_key HAVING count(*) > 1) duplicates""",
				"order-soak-" + run + "-%"))
			.as("provider idempotency keys charged more than once")
			.isZero();
		assertThat(
				count("""
						SELECT count(*) FROM payments p
						LEFT JOIN simulated_provider_charges c ON c.provider_idempotency_key = 'payonce-payment-' || p.id
						WHERE p.order_id LIKE ?
						  AND (c.provider_reference IS NULL OR p.status <> c.outcome OR p.provider_reference <> c.provider_reference)""",
						"order-soak-" + run + "-%"))
			.as("payments without exactly their ledger charge")
			.isZero();
		assertThat(count("""
				SELECT count(*) FROM idempotency_records
				WHERE idempotency_key LIKE ? AND status = 'IN_PROGRESS' AND locked_until <= now()""",
				"soak-" + run + "-%"))
			.as("records past their lease")
			.isZero();
		long charges = count("""
				SELECT count(*) FROM simulated_provider_charges c
				JOIN payments p ON c.provider_idempotency_key = 'payonce-payment-' || p.id WHERE p.order_id LIKE ?""",
				"order-soak-" + run + "-%");
		assertThat(charges).isEqualTo(KEYS);
		System.out.printf(
				"Soak: %d logical requests over %d keys, %d HTTP requests by status %s, problems %s, "
						+ "%d ledger charges, 0 duplicates%n",
				requests.size(), KEYS, statuses.values().stream().mapToLong(AtomicLong::get).sum(), statuses, problems,
				charges);
	}

	/**
	 * Sends every request, retrying each on 409 and 503 until it is final; returns the
	 * unfinished.
	 */
	private List<String> drive(PaymentsApi api, ConcurrentLinkedQueue<SoakKey> queue, Map<String, List<Reply>> finals,
			Map<Integer, AtomicLong> statuses, Map<String, AtomicLong> problems) throws Exception {
		CountDownLatch go = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(THREADS);
		List<String> unfinished = Collections.synchronizedList(new ArrayList<>());
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				workers.add(threads.submit(() -> {
					go.await();
					for (SoakKey key = queue.poll(); key != null; key = queue.poll()) {
						Reply reply = null;
						for (int tries = 0; tries < MAX_TRIES; tries++) {
							reply = api.pay(key.key(), key.body());
							statuses.computeIfAbsent(reply.status(), (status) -> new AtomicLong()).incrementAndGet();
							if (reply.status() != 409 && reply.status() != 503) {
								break;
							}
							problems
								.computeIfAbsent(reply.problemType().replaceAll(".*/", ""), (type) -> new AtomicLong())
								.incrementAndGet();
						}
						if (reply == null || reply.status() == 409 || reply.status() == 503) {
							unfinished.add(key.key());
						}
						else {
							finals.computeIfAbsent(key.key(), (k) -> Collections.synchronizedList(new ArrayList<>()))
								.add(reply);
						}
					}
					return null;
				}));
			}
			go.countDown();
			for (Future<?> worker : workers) {
				worker.get(5, TimeUnit.MINUTES);
			}
		}
		finally {
			threads.shutdownNow();
		}
		return unfinished;
	}

	private long count(String sql, String pattern) {
		return this.jdbc.sql(sql).param(pattern).query(Long.class).single();
	}

	record SoakKey(String key, String orderId, long amount, boolean declines) {

		String body() {
			return """
					{"orderId":"%s","amount":%d,"currency":"ILS","paymentMethod":"%s"}""".formatted(this.orderId,
					this.amount, this.declines ? "pm_card_chargeDeclined" : "pm_card_visa");
		}

	}

}
