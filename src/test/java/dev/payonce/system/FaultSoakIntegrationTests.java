package dev.payonce.system;

import java.time.Duration;
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

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.history.History;
import dev.payonce.history.HistoryChecker;
import dev.payonce.history.KeyRecords;
import dev.payonce.history.SimulatorLedger;
import dev.payonce.idempotency.IdempotencyReconciler;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import dev.payonce.payment.web.PaymentsApi;

/**
 * docs/design.md sections 6 and 15: provider timeouts, refusals and declines at every
 * step make no double charge, no lost payment and no key stuck past its lease; then the
 * same faults on a mix of refunds and payment replays make no double refund and no
 * over-refund; then, on manual payments, on captures racing each other and voids, no
 * double capture, no over-capture, no capture after a void and no hold left. 2,400
 * payment requests over 400 keys from 16 threads, with every simulator fault on at 10-15
 * %, declines on a fifth of the keys, the reconciler running every 200 ms, and clients
 * that retry on 409 and 503 until they get a final answer. Every exchange of the three
 * phases is one history, checked at the end by {@link HistoryChecker}.
 */
@Tag("system")
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

	static final int REFUNDED_PAYMENTS = 160;

	static final int REQUESTS_PER_REFUND_KEY = 2;

	static final int MANUAL_PAYMENTS = 120;

	static final int REQUESTS_PER_HOLD_KEY = 2;

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	IdempotencyReconciler reconciler;

	/** Every exchange of both phases as the client saw it, for {@link HistoryChecker}. */
	final History history = new History();

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

		refundPhase(run, keys, finals);
		holdPhase(run);
		assertThat(HistoryChecker.report("fault soak " + run, this.history,
				new KeyRecords(this.jdbc).outcomes(new SimulatorLedger(this.jdbc), "soak-" + run + "-%",
						"soak-refund-" + run + "-%", "soak-hold-" + run + "-%")))
			.as("anomalies of the clients' history against the ledger and the database")
			.isEmpty();
	}

	/**
	 * The same faults on a mix of refunds and payment replays: three refund keys of half
	 * the amount for each of the first {@value #REFUNDED_PAYMENTS} payments that
	 * succeeded, each key sent {@value #REQUESTS_PER_REFUND_KEY} times, shuffled with one
	 * more replay of every payment key. No refund is made twice, no payment is refunded
	 * beyond its amount, no reservation is left behind and no record is left past its
	 * lease; every stored refund answer is replayed unchanged, and every payment replay
	 * equals the original.
	 */
	private void refundPhase(String run, List<SoakKey> keys, Map<String, List<Reply>> paymentFinals) throws Exception {
		List<SoakRequest> requests = new ArrayList<>(keys);
		List<SoakRefund> refundKeys = new ArrayList<>();
		keys.stream().filter((key) -> !key.declines()).limit(REFUNDED_PAYMENTS).forEach((key) -> {
			String paymentId = paymentFinals.get(key.key()).get(0).field("id");
			for (int r = 0; r < 3; r++) {
				refundKeys.add(new SoakRefund("soak-refund-" + run + "-" + key.orderId() + "-" + r, paymentId,
						key.amount() / 2));
			}
		});
		refundKeys.forEach((refund) -> requests.addAll(Collections.nCopies(REQUESTS_PER_REFUND_KEY, refund)));
		Collections.shuffle(requests, new Random(43));
		Map<String, List<Reply>> finals = new ConcurrentHashMap<>();
		Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
		Map<String, AtomicLong> problems = new ConcurrentHashMap<>();

		List<String> unfinished = drive(new PaymentsApi(this.port), new ConcurrentLinkedQueue<>(requests), finals,
				statuses, problems);
		await().atMost(Duration.ofSeconds(60)).until(() -> count("""
				SELECT count(*) FROM idempotency_records
				WHERE idempotency_key LIKE ? AND status = 'IN_PROGRESS'""", "soak-refund-" + run + "-%") == 0);

		assertThat(unfinished).isEmpty();
		for (SoakKey key : keys) {
			assertThat(finals.get(key.key())).singleElement()
				.satisfies((replay) -> assertThat(replay.body()).isEqualTo(paymentFinals.get(key.key()).get(0).body()));
		}
		for (SoakRefund refund : refundKeys) {
			List<Reply> stored = finals.get(refund.key()).stream().filter((reply) -> reply.status() != 409).toList();
			assertThat(stored).allSatisfy((reply) -> {
				assertThat(reply.status()).isIn(201, 402);
				assertThat(reply.body()).isEqualTo(stored.get(0).body());
			});
		}
		String refunded = "soak-refund-" + run + "-%";
		assertThat(
				count("""
						SELECT count(*) FROM (SELECT i.idempotency_key FROM idempotency_records i JOIN refunds r ON r.id = i.resource_id
						  WHERE i.idempotency_key LIKE ? GROUP BY i.idempotency_key HAVING count(*) > 1) duplicates""",
						refunded))
			.as("refund keys with more than one refund")
			.isZero();
		assertThat(count("""
				SELECT count(*) FROM refunds r JOIN idempotency_records i ON r.id = i.resource_id
				LEFT JOIN simulated_provider_refunds l ON l.provider_idempotency_key = 'payonce-refund-' || r.id
				WHERE i.idempotency_key LIKE ?
				  AND ((r.status = 'SUCCEEDED') <> (l.outcome IS NOT DISTINCT FROM 'SUCCEEDED'))""", refunded))
			.as("refunds whose status disagrees with the provider's refund ledger")
			.isZero();
		assertThat(
				count("""
						SELECT count(*) FROM payments p
						LEFT JOIN (SELECT charge_reference, sum(amount) AS total FROM simulated_provider_refunds
						           WHERE outcome = 'SUCCEEDED' GROUP BY charge_reference) l ON l.charge_reference = p.provider_reference
						WHERE p.order_id LIKE ?
						  AND (COALESCE(l.total, 0) > p.amount OR COALESCE(l.total, 0) <> p.refunded_amount OR p.refunds_in_flight <> 0)""",
						"order-soak-" + run + "-%"))
			.as("payments over-refunded, or whose refunded amount disagrees with the ledger, or with a reservation left")
			.isZero();
		long providerRefunds = count("""
				SELECT count(*) FROM simulated_provider_refunds l JOIN refunds r
				  ON l.provider_idempotency_key = 'payonce-refund-' || r.id
				JOIN idempotency_records i ON r.id = i.resource_id WHERE i.idempotency_key LIKE ?""", refunded);
		System.out.printf(
				"Soak refunds: %d logical requests (%d refund keys), %d HTTP requests by status %s, problems %s, "
						+ "%d provider refunds, 0 duplicates, 0 over-refunds%n",
				requests.size(), refundKeys.size(), statuses.values().stream().mapToLong(AtomicLong::get).sum(),
				statuses, problems, providerRefunds);
	}

	/**
	 * The same faults on manual payments (docs/design.md section 15):
	 * {@value #MANUAL_PAYMENTS} are authorized, each key sent
	 * {@value #REQUESTS_PER_HOLD_KEY} times; then each authorized one gets three capture
	 * keys of two fifths of its amount (so at most two fit), and every second one a void
	 * key too, each key sent {@value #REQUESTS_PER_HOLD_KEY} times, all shuffled
	 * together. Every stored answer is replayed unchanged, nothing is left in progress or
	 * held, and each payment's captured amount and status agree with the provider's
	 * captures and void; the history check at the end names any double capture,
	 * over-capture, capture after a void or stuck record.
	 */
	private void holdPhase(String run) throws Exception {
		String prefix = "soak-hold-" + run + "-";
		List<SoakRequest> authorizations = new ArrayList<>();
		List<SoakAuthorization> manual = new ArrayList<>();
		for (int i = 0; i < MANUAL_PAYMENTS; i++) {
			SoakAuthorization payment = new SoakAuthorization(prefix + "pay-" + i, "order-hold-" + run + "-" + i,
					1000 + i);
			manual.add(payment);
			authorizations.addAll(Collections.nCopies(REQUESTS_PER_HOLD_KEY, payment));
		}
		Collections.shuffle(authorizations, new Random(44));
		Map<String, List<Reply>> authorized = new ConcurrentHashMap<>();
		Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
		Map<String, AtomicLong> problems = new ConcurrentHashMap<>();
		List<String> unfinished = drive(new PaymentsApi(this.port), new ConcurrentLinkedQueue<>(authorizations),
				authorized, statuses, problems);
		assertThat(unfinished).isEmpty();

		List<SoakRequest> requests = new ArrayList<>();
		List<SoakRequest> holdKeys = new ArrayList<>();
		for (int i = 0; i < MANUAL_PAYMENTS; i++) {
			SoakAuthorization payment = manual.get(i);
			Reply first = authorized.get(payment.key()).get(0);
			if (first.status() != 201) {
				continue;
			}
			assertThat(first.field("status")).isEqualTo("AUTHORIZED");
			String paymentId = first.field("id");
			for (int c = 0; c < 3; c++) {
				holdKeys.add(new SoakCapture(prefix + "capture-" + i + "-" + c, paymentId, payment.amount() * 2 / 5));
			}
			if (i % 2 == 0) {
				holdKeys.add(new SoakVoid(prefix + "void-" + i, paymentId));
			}
		}
		holdKeys.forEach((key) -> requests.addAll(Collections.nCopies(REQUESTS_PER_HOLD_KEY, key)));
		Collections.shuffle(requests, new Random(45));
		Map<String, List<Reply>> finals = new ConcurrentHashMap<>();

		unfinished = drive(new PaymentsApi(this.port), new ConcurrentLinkedQueue<>(requests), finals, statuses,
				problems);
		await().atMost(Duration.ofSeconds(60)).until(() -> count("""
				SELECT count(*) FROM idempotency_records
				WHERE idempotency_key LIKE ? AND status = 'IN_PROGRESS'""", prefix + "%") == 0);

		assertThat(unfinished).isEmpty();
		for (SoakRequest key : holdKeys) {
			List<Reply> stored = finals.get(key.key()).stream().filter((reply) -> reply.status() != 409).toList();
			assertThat(stored).allSatisfy((reply) -> {
				assertThat(reply.status()).isIn(200, 201, 402);
				assertThat(reply.body()).isEqualTo(stored.get(0).body());
			});
		}
		String orders = "order-hold-" + run + "-%";
		assertThat(
				count("""
						SELECT count(*) FROM payments p
						LEFT JOIN (SELECT charge_reference, sum(amount) AS total FROM simulated_provider_captures
						           WHERE outcome = 'SUCCEEDED' GROUP BY charge_reference) k ON k.charge_reference = p.provider_reference
						LEFT JOIN simulated_provider_voids v ON v.charge_reference = p.provider_reference AND v.outcome = 'SUCCEEDED'
						WHERE p.order_id LIKE ?
						  AND (COALESCE(k.total, 0) <> p.captured_amount OR p.captures_in_flight <> 0 OR p.void_in_flight
						       OR (p.status = 'VOIDED') <> (v.provider_reference IS NOT NULL))""",
						orders))
			.as("payments whose captured amount or void disagrees with the provider's ledger, or still held")
			.isZero();
		long providerCaptures = count(
				"""
						SELECT count(*) FROM simulated_provider_captures k JOIN payments p ON k.charge_reference = p.provider_reference
						WHERE p.order_id LIKE ? AND k.outcome = 'SUCCEEDED'""",
				orders);
		long providerVoids = count(
				"""
						SELECT count(*) FROM simulated_provider_voids v JOIN payments p ON v.charge_reference = p.provider_reference
						WHERE p.order_id LIKE ? AND v.outcome = 'SUCCEEDED'""",
				orders);
		System.out.printf(
				"Soak captures: %d logical requests (%d manual payments, %d capture and void keys), "
						+ "%d HTTP requests by status %s, problems %s, %d provider captures, %d provider voids%n",
				authorizations.size() + requests.size(), MANUAL_PAYMENTS, holdKeys.size(),
				statuses.values().stream().mapToLong(AtomicLong::get).sum(), statuses, problems, providerCaptures,
				providerVoids);
	}

	/**
	 * Sends every request, retrying each on 409 and 503 until it is final; returns the
	 * unfinished.
	 */
	private List<String> drive(PaymentsApi api, ConcurrentLinkedQueue<? extends SoakRequest> queue,
			Map<String, List<Reply>> finals, Map<Integer, AtomicLong> statuses, Map<String, AtomicLong> problems)
			throws Exception {
		CountDownLatch go = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(THREADS);
		List<String> unfinished = Collections.synchronizedList(new ArrayList<>());
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				workers.add(threads.submit(() -> {
					go.await();
					for (SoakRequest key = queue.poll(); key != null; key = queue.poll()) {
						Reply reply = null;
						for (int tries = 0; tries < MAX_TRIES; tries++) {
							History.Call call = this.history.invoke(key.key());
							reply = key.send(api);
							call.answered(reply.status(), reply.body());
							statuses.computeIfAbsent(reply.status(), (status) -> new AtomicLong()).incrementAndGet();
							if (!retryable(reply)) {
								break;
							}
							problems
								.computeIfAbsent(reply.problemType().replaceAll(".*/", ""), (type) -> new AtomicLong())
								.incrementAndGet();
						}
						if (reply == null || retryable(reply)) {
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

	/**
	 * 409 in progress and 503 are answered "retry"; a refused refund, capture or void
	 * (409 refund-exceeds-refundable, capture-exceeds-capturable, payment-not-capturable,
	 * payment-not-voidable), stored under no key, is final for the client.
	 */
	private static boolean retryable(Reply reply) {
		return reply.status() == 503
				|| (reply.status() == 409 && reply.problemType().endsWith("/idempotency-request-in-progress"));
	}

	private long count(String sql, String pattern) {
		return this.jdbc.sql(sql).param(pattern).query(Long.class).single();
	}

	/** One logical request of the soak, sent until its answer is final. */
	interface SoakRequest {

		String key();

		Reply send(PaymentsApi api);

	}

	record SoakKey(String key, String orderId, long amount, boolean declines) implements SoakRequest {

		@Override
		public Reply send(PaymentsApi api) {
			return api.pay(this.key, body());
		}

		String body() {
			return """
					{"orderId":"%s","amount":%d,"currency":"ILS","paymentMethod":"%s"}""".formatted(this.orderId,
					this.amount, this.declines ? "pm_card_chargeDeclined" : "pm_card_visa");
		}

	}

	/** A manual payment: authorized only, captured later. */
	record SoakAuthorization(String key, String orderId, long amount) implements SoakRequest {

		@Override
		public Reply send(PaymentsApi api) {
			return api.pay(this.key, """
					{"orderId":"%s","amount":%d,"currency":"ILS","capture":"manual"}""".formatted(this.orderId,
					this.amount));
		}

	}

	/** A capture of two fifths of a manual payment; three keys per payment. */
	record SoakCapture(String key, String paymentId, long amount) implements SoakRequest {

		@Override
		public Reply send(PaymentsApi api) {
			return api.capture(this.paymentId, this.key, "{\"amount\":" + this.amount + "}");
		}

	}

	/** A void of a manual payment, racing its captures. */
	record SoakVoid(String key, String paymentId) implements SoakRequest {

		@Override
		public Reply send(PaymentsApi api) {
			return api.voidPayment(this.paymentId, this.key);
		}

	}

	/** A refund of half a payment; three keys per payment, so at most two succeed. */
	record SoakRefund(String key, String paymentId, long amount) implements SoakRequest {

		@Override
		public Reply send(PaymentsApi api) {
			return api.refund(this.paymentId, this.key, "{\"amount\":" + this.amount + "}");
		}

	}

}
