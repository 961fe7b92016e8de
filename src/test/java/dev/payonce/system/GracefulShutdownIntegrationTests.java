package dev.payonce.system;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Currency;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.PayonceProcess;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.client.SecurityProperties;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.provider.Money;
import dev.payonce.payment.PaymentCommand;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import dev.payonce.payment.web.PaymentsApi;

/**
 * Graceful shutdown (docs/operations.md): SIGTERM reaches a real Payonce process (the
 * packaged jar) while 100 payments are in flight against a provider with 2 s latency and
 * its reconciler is in the middle of a batch of lookups (2 s each). Its retention job
 * runs too, but on the reconciler's scheduler thread, so it cannot be caught mid-run at a
 * known moment; {@code RetentionIntegrationTests} shows that it stops between batches.
 *
 * <p>
 * Setup, once for the class: the 100 payments are sent by 100 threads released together
 * and SIGTERM is sent once all 100 are claimed; as soon as the process answers 503, 20
 * new payments are sent by 20 threads released together. After the process has exited,
 * this test's own instance (same database) serves a retry of every key.
 */
@Tag("system")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "payonce.reconciliation.enabled=false")
@Import(TestcontainersConfiguration.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GracefulShutdownIntegrationTests {

	private static final int IN_FLIGHT = 100;

	private static final int DURING_DRAIN = 20;

	private static final int STALE = 30;

	/**
	 * Lease 60 s > provider timeout 5 s + margin 1 s; give-up 120 s > lease + timeout.
	 * The reconciler takes over all 30 stale claims in its first run, at start-up, and
	 * looks them up one by one for 60 s, so at SIGTERM it holds leases it has not worked
	 * on yet, leases that would otherwise stay held long after the process is gone.
	 */
	private static final Map<String, String> DRAINING = Map.ofEntries(
			Map.entry("payonce.gateway.simulator.latency", "2s"), Map.entry("payonce.gateway.simulator.timeout", "5s"),
			Map.entry("payonce.idempotency.lease", "60s"), Map.entry("payonce.reconciliation.lease-margin", "1s"),
			Map.entry("payonce.reconciliation.give-up-after", "120s"),
			Map.entry("payonce.reconciliation.interval", "1s"), Map.entry("payonce.reconciliation.stale-after", "1s"),
			Map.entry("payonce.reconciliation.batch-size", "30"),
			Map.entry("payonce.idempotency.cleanup.enabled", "true"),
			Map.entry("payonce.idempotency.cleanup.interval", "1s"),
			Map.entry("payonce.idempotency.cleanup.batch-size", "10"),
			// 100 claims and then 100 completions queue on the child's two connections;
			// this test is about shutdown, not about shedding load
			// (PoolExhaustionIntegrationTests).
			Map.entry("spring.datasource.hikari.connection-timeout", "15000"));

	@Autowired
	JdbcClient jdbc;

	@Autowired
	JdbcConnectionDetails database;

	@LocalServerPort
	int port;

	private final String run = UUID.randomUUID().toString().substring(0, 8);

	private final List<Outcome> inFlight = new ArrayList<>();

	private final List<Outcome> duringDrain = new ArrayList<>();

	/** Every key sent to the stopping process or seeded for it, with its body. */
	private final Map<String, String> keys = new LinkedHashMap<>();

	private final Map<String, Reply> retries = new LinkedHashMap<>();

	private Outcome firstRefusal;

	private int exitCode;

	private Duration drain;

	private long leasesHeldAfterExit;

	private long lateClaims;

	private String log;

	@BeforeAll
	void stopWhileBusyThenRetry() throws Exception {
		List<String> stale = seedStaleClaims();
		ExecutorService clients = Executors.newFixedThreadPool(IN_FLIGHT + DURING_DRAIN);
		try (PayonceProcess stopping = PayonceProcess.start("graceful-shutdown", this.database, DRAINING)) {
			stopping.awaitReady();
			PaymentsApi api = new PaymentsApi(stopping.port());
			// The first exchange loads the served OpenAPI document that every exchange is
			// checked against: now, not during the drain.
			assertThat(api.get("/payments/" + UUID.randomUUID()).status()).isEqualTo(404);
			CountDownLatch go = new CountDownLatch(1);
			List<Future<Outcome>> payments = new ArrayList<>();
			for (int i = 0; i < IN_FLIGHT; i++) {
				String key = "drain-" + this.run + "-" + i;
				this.keys.put(key, body(key, 1000 + i));
				payments.add(clients.submit(() -> {
					go.await();
					return Outcome.of(() -> api.pay(key, this.keys.get(key)));
				}));
			}

			go.countDown();
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> claims("drain-" + this.run + "-%") == IN_FLIGHT);
			long terminated = System.nanoTime();
			stopping.terminate();
			AtomicReference<Outcome> refusal = new AtomicReference<>();
			await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).until(() -> {
				Outcome probe = Outcome.of(() -> api.get("/payments/" + UUID.randomUUID()));
				refusal.set(probe);
				return probe.failure() != null || probe.reply().status() == 503;
			});
			this.firstRefusal = refusal.get();
			CountDownLatch late = new CountDownLatch(1);
			List<Future<Outcome>> refused = new ArrayList<>();
			for (int i = 0; i < DURING_DRAIN; i++) {
				String key = "late-" + this.run + "-" + i;
				this.keys.put(key, body(key, 2000 + i));
				refused.add(clients.submit(() -> {
					late.await();
					return Outcome.of(() -> api.pay(key, this.keys.get(key)));
				}));
			}
			late.countDown();
			for (Future<Outcome> payment : payments) {
				this.inFlight.add(payment.get(60, TimeUnit.SECONDS));
			}
			for (Future<Outcome> payment : refused) {
				this.duringDrain.add(payment.get(60, TimeUnit.SECONDS));
			}
			this.exitCode = stopping.awaitExit(Duration.ofSeconds(60));
			this.drain = Duration.ofNanos(System.nanoTime() - terminated);
			this.log = stopping.log();
		}
		finally {
			clients.shutdownNow();
		}
		stale.forEach((key) -> this.keys.put(key, body(key, 700)));
		this.leasesHeldAfterExit = this.jdbc.sql("""
				SELECT count(*) FROM idempotency_records
				WHERE (idempotency_key LIKE ? OR idempotency_key LIKE ?)
				  AND status = 'IN_PROGRESS' AND locked_until > now()""")
			.param("drain-" + this.run + "-%")
			.param("stale-" + this.run + "-%")
			.query(Long.class)
			.single();
		this.lateClaims = claims("late-" + this.run + "-%");

		PaymentsApi survivor = new PaymentsApi(this.port);
		for (Map.Entry<String, String> key : this.keys.entrySet()) {
			this.retries.put(key.getKey(), survivor.pay(key.getKey(), key.getValue()));
		}
	}

	@Test
	void everyInFlightRequestCompletesOrAnswers503() {
		assertThat(this.inFlight).hasSize(IN_FLIGHT).allSatisfy((outcome) -> {
			assertThat(outcome.failure()).as("connection failure").isNull();
			assertThat(outcome.reply().status()).isIn(201, 503);
			if (outcome.reply().status() == 503) {
				assertThat(outcome.reply().field("paymentId")).isNotEmpty();
			}
		});
		assertThat(this.drain).as("SIGTERM to exit").isLessThan(Duration.ofSeconds(30));
	}

	@Test
	void newRequestsDuringTheDrainGetA503ProblemNotAReset() {
		List<Outcome> all = new ArrayList<>(this.duringDrain);
		all.add(this.firstRefusal);

		assertThat(all).hasSize(DURING_DRAIN + 1).allSatisfy((outcome) -> {
			assertThat(outcome.failure()).as("connection failure").isNull();
			assertThat(outcome.reply().status()).isEqualTo(503);
			assertThat(outcome.reply().problemType()).isEqualTo("https://payonce.dev/problems/service-unavailable");
			assertThat(outcome.reply().header("Content-Type")).contains("application/problem+json");
			assertThat(outcome.reply().header("Retry-After")).contains("1");
		});
		assertThat(this.lateClaims).as("claims of requests refused during the drain").isZero();
	}

	@Test
	void noLeaseOutlivesTheProcessAndTheReconcilerReleasesItsBatch() {
		assertThat(this.leasesHeldAfterExit).isZero();
		assertThat(this.log).contains("Reconciliation stopped for shutdown");
	}

	@Test
	void exitsAfterAGracefulShutdownWithNoErrorLogged() {
		assertThat(this.exitCode).as("exit status after SIGTERM").isEqualTo(143);
		assertThat(this.log).contains("Shutting down: new requests are answered 503", "Graceful shutdown complete")
			.doesNotContain("\"level\":\"ERROR\"");
	}

	@Test
	void retriesResolveEveryKeyWithNoDuplicateAndNoLostCharge() {
		assertThat(this.retries).hasSize(IN_FLIGHT + DURING_DRAIN + STALE).allSatisfy((key, reply) -> {
			assertThat(reply.status()).as(key).isEqualTo(201);
			assertThat(payments(key)).as(key).isEqualTo(1);
			assertThat(charges(key)).as(key).isEqualTo(1);
		});
		this.inFlight.stream()
			.map(Outcome::reply)
			.filter((reply) -> reply.status() == 201)
			.forEach((original) -> assertThat(this.retries.get(keyOf(original)).body()).isEqualTo(original.body()));
	}

	/**
	 * Claims as a crash or a 503 leaves them: IN_PROGRESS, lease ended, payment PENDING;
	 * the stopping process's reconciler takes them over.
	 */
	private List<String> seedStaleClaims() {
		List<String> seeded = new ArrayList<>();
		for (int i = 0; i < STALE; i++) {
			String key = "stale-" + this.run + "-" + i;
			UUID paymentId = UUID.randomUUID();
			PaymentCommand command = new PaymentCommand(SecurityProperties.DevClient.ID, new IdempotencyKey(key), key,
					new Money(700, Currency.getInstance("ILS")), PaymentCommand.DEFAULT_PAYMENT_METHOD);
			Timestamp now = Timestamp.from(Instant.now());
			this.jdbc.sql("""
					INSERT INTO payments (id, client_id, order_id, amount, currency, payment_method, status,
					    created_at, updated_at, version)
					VALUES (?, ?, ?, 700, 'ILS', ?, 'PENDING', ?, ?, 0)""")
				.params(paymentId, command.clientId().value(), key, command.paymentMethod(), now, now)
				.update();
			this.jdbc.sql("""
					INSERT INTO idempotency_records (scope, idempotency_key, operation, request_fingerprint, status,
					    locked_until, attempt, resource_id, created_at)
					VALUES (?, ?, 'payment', ?, 'IN_PROGRESS', ?, 1, ?, ?)""")
				.params(command.clientId().value(), key, command.fingerprint().sha256Hex(), now, paymentId, now)
				.update();
			seeded.add(key);
		}
		return seeded;
	}

	private long claims(String keyPattern) {
		return this.jdbc.sql("SELECT count(*) FROM idempotency_records WHERE idempotency_key LIKE ?")
			.param(keyPattern)
			.query(Long.class)
			.single();
	}

	private long payments(String orderId) {
		return this.jdbc.sql("SELECT count(*) FROM payments WHERE order_id = ?")
			.param(orderId)
			.query(Long.class)
			.single();
	}

	private long charges(String orderId) {
		return this.jdbc.sql("""
				SELECT count(*) FROM simulated_provider_charges c JOIN payments p
				  ON c.provider_idempotency_key = 'payonce-payment-' || p.id
				WHERE p.order_id = ?""").param(orderId).query(Long.class).single();
	}

	private static String keyOf(Reply receipt) {
		return receipt.field("orderId");
	}

	/** The order id is the idempotency key, so each key's payment is easy to find. */
	private static String body(String key, long amount) {
		return """
				{"orderId":"%s","amount":%d,"currency":"ILS"}""".formatted(key, amount);
	}

	/** An answer, or the connection failure (reset, refused) that came instead. */
	record Outcome(@Nullable Reply reply, @Nullable Exception failure) {

		static Outcome of(Supplier<Reply> request) {
			try {
				return new Outcome(request.get(), null);
			}
			catch (IllegalStateException ex) {
				return new Outcome(null, ex);
			}
		}

	}

}
