package dev.payonce.system;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.gateway.stripe.StripeApiModel.Intent;
import dev.payonce.gateway.stripe.StripeApiModel.StripeFault;
import dev.payonce.history.History;
import dev.payonce.history.HistoryChecker;
import dev.payonce.history.KeyRecords;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import dev.payonce.gateway.stripe.StripeApiModel;

/**
 * The fault soak with the Stripe adapter against {@link StripeApiModel}: payment requests
 * from many threads, search lagging 300 ms behind, the reconciler running every 200 ms,
 * declines on a fifth of the keys, and clients that retry on 409 and 503 after the
 * {@code Retry-After} they are given; then every charged payment refunded by half under
 * its own key, two requests per key, with the same faults on Stripe's refund creation.
 * Faults: every kind a network or Stripe causes (429, 409 key in use, resets before and
 * after the charge, timeouts after the charge, a saved 500 with and without a charge, a
 * 500 naming the PaymentIntent).
 * <ul>
 * <li>Default suite: 40 payment keys (4 requests each) and their refunds, the first
 * create call of each key meeting a planned fault, the kinds taken in turn, so every kind
 * is met by payments and refunds on every run.</li>
 * <li>{@code PAYONCE_STRIPE_SOAK=true}: 120 payment keys, a quarter of all create calls
 * meeting a fault drawn at random.</li>
 * </ul>
 * No payment charged twice, no refund made twice, every payment and refund settled and
 * matched by exactly its Stripe object, no record left past its lease.
 */
@Tag("system")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "payonce.gateway.provider=stripe", "payonce.gateway.stripe.secret-key=sk_test_model",
				"payonce.gateway.stripe.webhook-signing-secret=whsec_soak",
				"payonce.gateway.stripe.connect-timeout=500ms", "payonce.gateway.stripe.read-timeout=700ms",
				"payonce.gateway.stripe.search-settle-time=600ms", "payonce.reconciliation.lease-margin=1s",
				"payonce.idempotency.lease=4s", "payonce.reconciliation.give-up-after=2m",
				"payonce.reconciliation.interval=200ms", "payonce.reconciliation.stale-after=0s",
				"payonce.reconciliation.enabled=true" })
@Import(TestcontainersConfiguration.class)
// Its reconciler runs on a timer: closed afterwards, so it never settles another class's
// payments from the context cache.
@DirtiesContext
class StripeFaultSoakIntegrationTests {

	/** The full soak, with random faults: {@code PAYONCE_STRIPE_SOAK=true}. */
	static final boolean FULL = "true".equals(System.getenv("PAYONCE_STRIPE_SOAK"));

	static final int KEYS = FULL ? 120 : 16;

	/**
	 * Runs one after another in this context, each with fresh keys:
	 * {@code PAYONCE_STRIPE_SOAK_RUNS} (default 1).
	 */
	static final int RUNS = Integer.parseInt(System.getenv().getOrDefault("PAYONCE_STRIPE_SOAK_RUNS", "1"));

	static final int REQUESTS_PER_KEY = 4;

	static final int REQUESTS_PER_REFUND = 2;

	static final int THREADS = FULL ? 8 : 16;

	static final int MAX_TRIES = 200;

	static final StripeApiModel stripe = new StripeApiModel(Duration.ofMillis(300), Duration.ofMillis(1000));

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	/** Every exchange of one run as the client saw it, for {@link HistoryChecker}. */
	History history = new History();

	@DynamicPropertySource
	static void stripeApi(DynamicPropertyRegistry registry) {
		registry.add("payonce.gateway.stripe.api-base", stripe::baseUrl);
	}

	@AfterAll
	static void stopStripe() {
		stripe.shutdown();
	}

	@Test
	void stripeFaultsAndRetriesNeverChargeOrRefundTwiceLoseOneOrLeaveAKeyStuck() throws Exception {
		for (int round = 1; round <= RUNS; round++) {
			long started = System.nanoTime();
			soakOnce();
			System.out.printf("Stripe soak run %d of %d passed in %d ms%n", round, RUNS,
					Duration.ofNanos(System.nanoTime() - started).toMillis());
		}
	}

	/** One run: fresh keys, payments then refunds. */
	private void soakOnce() throws Exception {
		String run = UUID.randomUUID().toString();
		this.history = new History();
		List<SoakKey> keys = new ArrayList<>();
		for (int i = 0; i < KEYS; i++) {
			keys.add(new SoakKey("stripe-soak-" + run + "-" + i, "order-stripe-soak-" + run + "-" + i, 100 + i,
					i % 5 == 0));
			if (!FULL) {
				stripe.plan("order-stripe-soak-" + run + "-" + i, plannedFault(i));
			}
		}
		Map<StripeFault, Long> faultsBefore = stripe.faultsMet();
		int createCallsBefore = stripe.createKeys().size();
		stripe.randomFaults(FULL ? 0.25 : 0);
		List<SoakKey> requests = new ArrayList<>();
		keys.forEach((key) -> requests.addAll(Collections.nCopies(REQUESTS_PER_KEY, key)));
		Collections.shuffle(requests, new Random(7));
		Map<String, List<Reply>> finals = new ConcurrentHashMap<>();
		Map<String, AtomicLong> problems = new ConcurrentHashMap<>();

		PaymentsApi api = new PaymentsApi(this.port);
		long started = System.nanoTime();
		List<String> unfinished = drive((key) -> api.pay(key.key(), key.body()), new ConcurrentLinkedQueue<>(requests),
				finals, problems);
		stripe.randomFaults(0);
		Duration paying = Duration.ofNanos(System.nanoTime() - started);
		Map<StripeFault, Long> paymentFaults = since(faultsBefore);
		int paymentCreateCalls = stripe.createKeys().size() - createCallsBefore;

		assertThat(unfinished).isEmpty();
		List<String> paymentIds = new ArrayList<>();
		for (SoakKey key : keys) {
			List<Reply> answers = finals.get(key.key());
			assertThat(answers).hasSize(REQUESTS_PER_KEY);
			assertThat(answers).allSatisfy((reply) -> {
				assertThat(reply.status()).isEqualTo(key.declines() ? 402 : 201);
				assertThat(reply.body()).isEqualTo(answers.get(0).body());
			});
			String paymentId = key.declines() ? answers.get(0).field("paymentId") : answers.get(0).field("id");
			paymentIds.add(paymentId);
			assertThat(stripe.chargesOf(paymentId)).as("charged PaymentIntents of a payment")
				.isEqualTo(key.declines() ? 0 : 1);
			String reference = this.jdbc.sql("SELECT provider_reference FROM payments WHERE id = ?::uuid")
				.param(paymentId)
				.query(String.class)
				.single();
			assertThat(stripe.intentsOf(paymentId)).extracting(Intent::id).contains(reference);
		}
		List<Intent> charged = stripe.allIntents()
			.stream()
			.filter((intent) -> "succeeded".equals(intent.status()))
			.filter((intent) -> paymentIds.contains(intent.paymentId()))
			.toList();
		long approvedKeys = keys.stream().filter((key) -> !key.declines()).count();
		assertThat(charged).hasSize(Math.toIntExact(approvedKeys));
		assertThat(charged.stream().map(Intent::paymentId).distinct().count()).isEqualTo(charged.size());
		assertThat(this.jdbc.sql("""
				SELECT count(*) FROM idempotency_records
				WHERE idempotency_key LIKE ? AND status = 'IN_PROGRESS'""")
			.param("stripe-soak-" + run + "-%")
			.query(Long.class)
			.single()).as("records not completed").isZero();
		long newGenerations = this.jdbc
			.sql("SELECT count(*) FROM payments WHERE order_id LIKE ? AND provider_key_generation > 1")
			.param("order-stripe-soak-" + run + "-%")
			.query(Long.class)
			.single();
		System.out.printf(
				"Stripe soak, payments: %d requests over %d keys in %d ms, %d create calls meeting %s, problems %s, "
						+ "%d charged PaymentIntents for %d approved keys, %d payments on a new provider key "
						+ "generation, 0 double charges%n",
				requests.size(), KEYS, paying.toMillis(), paymentCreateCalls, paymentFaults, problems, charged.size(),
				approvedKeys, newGenerations);

		refundEveryChargedPaymentOnce(api, run, keys, paymentIds);
	}

	/** The planned fault of key {@code i} in the default suite: each kind in turn. */
	private static StripeFault plannedFault(int i) {
		List<StripeFault> kinds = StripeApiModel.RANDOM_FAULTS;
		return kinds.get(i % kinds.size());
	}

	/** The faults met since {@code before}, by kind. */
	private static Map<StripeFault, Long> since(Map<StripeFault, Long> before) {
		Map<StripeFault, Long> met = new TreeMap<>();
		stripe.faultsMet().forEach((fault, count) -> met.put(fault, count - before.getOrDefault(fault, 0L)));
		return met;
	}

	/**
	 * The refund half: each charged payment refunded by half its amount under its own
	 * key, {@value #REQUESTS_PER_REFUND} requests per key, the same faults on Stripe's
	 * refund creation. Each refund settles with exactly one Stripe refund.
	 */
	private void refundEveryChargedPaymentOnce(PaymentsApi api, String run, List<SoakKey> keys, List<String> paymentIds)
			throws Exception {
		Map<String, String> paymentOfRefundKey = new ConcurrentHashMap<>();
		List<SoakKey> refundKeys = new ArrayList<>();
		for (int i = 0; i < keys.size(); i++) {
			if (!keys.get(i).declines()) {
				SoakKey refund = new SoakKey("stripe-soak-refund-" + run + "-" + i, keys.get(i).orderId(),
						keys.get(i).amount() / 2, false);
				refundKeys.add(refund);
				paymentOfRefundKey.put(refund.key(), paymentIds.get(i));
				if (!FULL) {
					stripe.plan(providerReference(paymentIds.get(i)), plannedFault(i));
				}
			}
		}
		Map<StripeFault, Long> faultsBefore = stripe.faultsMet();
		int createCallsBefore = stripe.createKeys().size();
		int refundsBefore = stripe.allRefunds().size();
		List<SoakKey> requests = new ArrayList<>();
		refundKeys.forEach((key) -> requests.addAll(Collections.nCopies(REQUESTS_PER_REFUND, key)));
		Collections.shuffle(requests, new Random(11));
		Map<String, List<Reply>> finals = new ConcurrentHashMap<>();
		Map<String, AtomicLong> problems = new ConcurrentHashMap<>();
		stripe.randomFaults(FULL ? 0.25 : 0);
		long started = System.nanoTime();
		List<String> unfinished = drive(
				(key) -> api.refund(paymentOfRefundKey.get(key.key()), key.key(), "{\"amount\":" + key.amount() + "}"),
				new ConcurrentLinkedQueue<>(requests), finals, problems);
		stripe.randomFaults(0);
		Duration refunding = Duration.ofNanos(System.nanoTime() - started);

		assertThat(unfinished).isEmpty();
		for (SoakKey key : refundKeys) {
			List<Reply> answers = finals.get(key.key());
			assertThat(answers).hasSize(REQUESTS_PER_REFUND);
			assertThat(answers).allSatisfy((reply) -> {
				assertThat(reply.status()).isEqualTo(201);
				assertThat(reply.body()).isEqualTo(answers.get(0).body());
			});
			String paymentId = paymentOfRefundKey.get(key.key());
			String intentId = providerReference(paymentId);
			assertThat(stripe.refundsOf(intentId)).as("Stripe refunds of a charged PaymentIntent")
				.singleElement()
				.satisfies((refund) -> {
					assertThat(refund.id()).isEqualTo(answers.get(0).field("providerReference"));
					assertThat(refund.refundId()).isEqualTo(answers.get(0).field("id"));
					assertThat(refund.amount()).isEqualTo(key.amount());
				});
			assertThat(this.jdbc.sql("SELECT refunded_amount + refunds_in_flight FROM payments WHERE id = ?::uuid")
				.param(paymentId)
				.query(Long.class)
				.single()).isEqualTo(key.amount());
		}
		assertThat(this.jdbc.sql("""
				SELECT count(*) FROM idempotency_records
				WHERE idempotency_key LIKE ? AND status = 'IN_PROGRESS'""")
			.param("stripe-soak-refund-" + run + "-%")
			.query(Long.class)
			.single()).as("refund records not completed").isZero();
		long newGenerations = this.jdbc.sql("""
				SELECT count(*) FROM refunds r JOIN payments p ON p.id = r.payment_id
				WHERE p.order_id LIKE ? AND r.provider_key_generation > 1""")
			.param("order-stripe-soak-" + run + "-%")
			.query(Long.class)
			.single();
		Map<StripeFault, Long> refundFaults = since(faultsBefore);
		System.out.printf(
				"Stripe soak, refunds: %d requests over %d keys in %d ms, %d create calls meeting %s, problems %s, "
						+ "%d Stripe refunds, %d refunds on a new provider key generation, 0 double refunds%n",
				requests.size(), refundKeys.size(), refunding.toMillis(),
				stripe.createKeys().size() - createCallsBefore, refundFaults, problems,
				stripe.allRefunds().size() - refundsBefore, newGenerations);
		assertThat(HistoryChecker.report("Stripe soak " + run, this.history,
				new KeyRecords(this.jdbc).outcomes(stripe.ledger(), "stripe-soak-" + run + "-%",
						"stripe-soak-refund-" + run + "-%")))
			.as("anomalies of the clients' history against Stripe's objects and the database")
			.isEmpty();
	}

	private String providerReference(String paymentId) {
		return this.jdbc.sql("SELECT provider_reference FROM payments WHERE id = ?::uuid")
			.param(paymentId)
			.query(String.class)
			.single();
	}

	/**
	 * Sends every request, retrying on 409 and 503 after their {@code Retry-After}, as
	 * the README tells clients to; returns the keys left unfinished.
	 */
	private List<String> drive(Function<SoakKey, Reply> send, ConcurrentLinkedQueue<SoakKey> queue,
			Map<String, List<Reply>> finals, Map<String, AtomicLong> problems) throws Exception {
		CountDownLatch go = new CountDownLatch(1);
		List<String> unfinished = Collections.synchronizedList(new ArrayList<>());
		try (ExecutorService threads = Executors.newFixedThreadPool(THREADS)) {
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				workers.add(threads.submit(() -> {
					go.await();
					for (SoakKey key = queue.poll(); key != null; key = queue.poll()) {
						Reply reply = null;
						for (int tries = 0; tries < MAX_TRIES; tries++) {
							History.Call call = this.history.invoke(key.key());
							reply = send.apply(key);
							call.answered(reply.status(), reply.body());
							if (reply.status() != 409 && reply.status() != 503) {
								break;
							}
							problems
								.computeIfAbsent(reply.problemType().replaceAll(".*/", ""), (type) -> new AtomicLong())
								.incrementAndGet();
							// A client honouring Retry-After; this orders nothing the
							// test asserts.
							Thread.sleep(Duration.ofSeconds(Long.parseLong(reply.header("Retry-After").orElse("1"))));
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
				worker.get(8, TimeUnit.MINUTES);
			}
		}
		return unfinished.stream().collect(Collectors.toList());
	}

	record SoakKey(String key, String orderId, long amount, boolean declines) {

		String body() {
			return """
					{"orderId":"%s","amount":%d,"currency":"EUR","paymentMethod":"%s"}""".formatted(this.orderId,
					this.amount, this.declines ? "pm_card_chargeDeclined" : "pm_card_visa");
		}

	}

}
