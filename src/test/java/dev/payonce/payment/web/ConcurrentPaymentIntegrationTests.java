package dev.payonce.payment.web;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.MeterReadings;
import dev.payonce.PayonceProcess;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.gateway.simulator.SimulatorSettings;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * docs/design.md section 6: many concurrent requests with one key make exactly one
 * provider charge and one payment. Real platform threads, released together by a latch,
 * through the real HTTP server to real PostgreSQL, on one instance and spread across two
 * (the second a separate process on the same database). The simulated provider takes 50
 * ms so that later requests meet the first one's live lease as well as its completed
 * record.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class ConcurrentPaymentIntegrationTests {

	static final int REQUESTS = 64;

	static final int ROUNDS = 3;

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	JdbcConnectionDetails database;

	@Autowired
	MeterRegistry meters;

	@Autowired
	DataSource dataSource;

	PaymentsApi api;

	@Autowired
	ApplicationContext context;

	@BeforeEach
	void simulatorSettings() {
		SimulatorSettings.of(this.context).latency(Duration.ofMillis(50));
	}

	@AfterEach
	void resetSimulator() {
		SimulatorSettings.of(this.context).reset();
	}

	@BeforeEach
	void setUp() {
		this.api = new PaymentsApi(this.port);
	}

	@Test
	void chargesProviderOnceForConcurrentRequestsWithOneKey() throws Exception {
		for (int round = 0; round < ROUNDS; round++) {
			String key = "storm-" + UUID.randomUUID();
			String orderId = "order-" + UUID.randomUUID();
			String body = PaymentsApi.paymentBody(orderId, 2500, "ILS");

			MeterReadings readings = new MeterReadings(this.meters);
			double acquired = readings.claims("acquired");
			double inProgress = readings.claims("in_progress");
			double replayed = readings.claims("replayed");
			double succeeded = readings.payments("succeeded");
			long approved = readings.providerCalls("charge", "approved");

			List<Reply> replies = sendTogether(key, body);

			List<Reply> created = replies.stream().filter((reply) -> reply.status() == 201).toList();
			assertThat(replies).allSatisfy((reply) -> assertThat(reply.status()).isIn(201, 409));
			assertThat(created).isNotEmpty();
			String paymentId = created.get(0).field("id");
			assertThat(created).allSatisfy((reply) -> {
				assertThat(reply.field("id")).isEqualTo(paymentId);
				assertThat(reply.body()).isEqualTo(created.get(0).body());
			});
			assertThat(created.stream().filter((reply) -> reply.header("Idempotent-Replayed").isEmpty())).hasSize(1);
			assertThat(replies.stream().filter((reply) -> reply.status() == 409))
				.allSatisfy((reply) -> assertThat(reply.header("Retry-After")).isPresent());
			assertThat(count("SELECT count(*) FROM payments WHERE order_id = ?", orderId)).isEqualTo(1);
			assertThat(count("SELECT count(*) FROM simulated_provider_charges WHERE provider_idempotency_key = ?",
					"payonce-payment-" + paymentId))
				.isEqualTo(1);
			assertThat(count("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?", key)).isEqualTo(1);
			long conflicts = replies.stream().filter((reply) -> reply.status() == 409).count();
			assertThat(readings.claims("acquired") - acquired).isEqualTo(1);
			assertThat(readings.claims("in_progress") - inProgress).isEqualTo(conflicts);
			assertThat(readings.claims("replayed") - replayed).isEqualTo(created.size() - 1);
			assertThat(readings.payments("succeeded") - succeeded).isEqualTo(1);
			assertThat(readings.providerCalls("charge", "approved") - approved).isEqualTo(1);
		}
	}

	@Test
	@Tag("system")
	void chargesProviderOnceForConcurrentRequestsSpreadAcrossTwoInstances() throws Exception {
		try (PayonceProcess second = PayonceProcess.start("second-instance", this.database,
				Map.of("payonce.gateway.simulator.latency", "50ms"))) {
			second.awaitReady();
			PaymentsApi other = new PaymentsApi(second.port());
			// One request first: the storm is about two instances deciding one key, not
			// about a cold JVM serving its first requests all at once (once, in CI, a
			// cold
			// second instance answered none of its share within the client's 30 s
			// timeout).
			assertThat(other
				.pay("warm-up-" + UUID.randomUUID(), PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 100, "ILS"))
				.status()).isEqualTo(201);
			for (int round = 0; round < ROUNDS; round++) {
				String key = "two-instances-" + UUID.randomUUID();
				String orderId = "order-" + UUID.randomUUID();
				String body = PaymentsApi.paymentBody(orderId, 2600, "ILS");

				List<Reply> replies = sendTogether((i) -> ((i % 2 == 0) ? this.api : other).pay(key, body));

				assertThat(replies).allSatisfy((reply) -> assertThat(reply.status()).isIn(201, 409));
				List<Reply> created = replies.stream().filter((reply) -> reply.status() == 201).toList();
				assertThat(created).isNotEmpty();
				assertThat(created).allSatisfy((reply) -> assertThat(reply.body()).isEqualTo(created.get(0).body()));
				assertThat(created.stream().filter((reply) -> reply.header("Idempotent-Replayed").isEmpty()))
					.hasSize(1);
				String paymentId = created.get(0).field("id");
				assertThat(count("SELECT count(*) FROM payments WHERE order_id = ?", orderId)).isEqualTo(1);
				assertThat(count("SELECT count(*) FROM simulated_provider_charges WHERE provider_idempotency_key = ?",
						"payonce-payment-" + paymentId))
					.isEqualTo(1);
			}
		}
	}

	@Test
	void answersConflictNotOutageWhenTheDatabaseDefaultsToSerializable() throws Exception {
		String database = this.jdbc.sql("SELECT current_database()").query(String.class).single();
		this.jdbc.sql("ALTER DATABASE \"" + database + "\" SET default_transaction_isolation = 'serializable'")
			.update();
		try {
			freshConnections();
			// The database's default is SERIALIZABLE; the pool's sessions are not.
			assertThat(this.jdbc.sql("""
					SELECT array_to_string(setconfig, ',') FROM pg_db_role_setting s
					JOIN pg_database d ON d.oid = s.setdatabase
					WHERE d.datname = current_database() AND s.setrole = 0""").query(String.class).single())
				.contains("default_transaction_isolation=serializable");
			String key = "serializable-" + UUID.randomUUID();
			String orderId = "order-" + UUID.randomUUID();
			String body = PaymentsApi.paymentBody(orderId, 2700, "ILS");

			List<Reply> replies = sendTogether(32, (i) -> this.api.pay(key, body));

			assertThat(replies).allSatisfy((reply) -> assertThat(reply.status()).isIn(201, 409));
			List<Reply> created = replies.stream().filter((reply) -> reply.status() == 201).toList();
			assertThat(created.stream().filter((reply) -> reply.header("Idempotent-Replayed").isEmpty())).hasSize(1);
			assertThat(replies.stream().filter((reply) -> reply.status() == 409))
				.allSatisfy((reply) -> assertThat(reply.problemType())
					.isEqualTo("https://payonce.dev/problems/idempotency-request-in-progress"));
			assertThat(count("SELECT count(*) FROM payments WHERE order_id = ?", orderId)).isEqualTo(1);
			assertThat(count("SELECT count(*) FROM simulated_provider_charges WHERE provider_idempotency_key = ?",
					"payonce-payment-" + created.get(0).field("id")))
				.isEqualTo(1);
		}
		finally {
			this.jdbc.sql("ALTER DATABASE \"" + database + "\" RESET default_transaction_isolation").update();
			freshConnections();
		}
	}

	@Test
	void answersConflictNotOutageWhenAClaimMeetsAConcurrentInsertUnderSerializable() throws Exception {
		String database = this.jdbc.sql("SELECT current_database()").query(String.class).single();
		this.jdbc.sql("ALTER DATABASE \"" + database + "\" SET default_transaction_isolation = 'serializable'")
			.update();
		String key = "serializable-race-" + UUID.randomUUID();
		try (Connection competitor = this.dataSource.getConnection()) {
			freshConnections();
			// Another transaction inserts the key's record and holds it uncommitted: the
			// request's claim waits on it, and under SERIALIZABLE would then fail with
			// SQLSTATE 40001.
			competitor.setAutoCommit(false);
			try (PreparedStatement insert = competitor.prepareStatement("""
					INSERT INTO idempotency_records (scope, idempotency_key, operation, request_fingerprint,
					    status, locked_until, attempt, resource_id, created_at)
					VALUES ('cli_development', ?, 'payment', repeat('0', 64), 'IN_PROGRESS',
					    now() + interval '1 minute', 1, ?, now())""")) {
				insert.setString(1, key);
				insert.setObject(2, UUID.randomUUID());
				insert.executeUpdate();
			}
			CompletableFuture<Reply> reply = CompletableFuture.supplyAsync(
					() -> this.api.pay(key, PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 2800, "ILS")));
			await().atMost(Duration.ofSeconds(30))
				.until(() -> this.jdbc.sql("""
						SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
						AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO idempotency_records%'""")
					.query(Long.class)
					.single() == 1);

			competitor.commit();

			Reply answer = reply.get(30, TimeUnit.SECONDS);
			assertThat(answer.status()).isIn(409, 422);
			assertThat(answer.problemType()).isNotEqualTo("https://payonce.dev/problems/service-unavailable");
		}
		finally {
			this.jdbc.sql("ALTER DATABASE \"" + database + "\" RESET default_transaction_isolation").update();
			freshConnections();
			this.jdbc.sql("DELETE FROM idempotency_records WHERE idempotency_key = ?").param(key).update();
		}
	}

	/** Pooled connections keep the session defaults they started with: replace them. */
	private void freshConnections() {
		((HikariDataSource) this.dataSource).getHikariPoolMXBean().softEvictConnections();
	}

	private List<Reply> sendTogether(String key, String body) throws Exception {
		return sendTogether((i) -> this.api.pay(key, body));
	}

	private List<Reply> sendTogether(IntFunction<Reply> request) throws Exception {
		return sendTogether(REQUESTS, request);
	}

	private List<Reply> sendTogether(int requests, IntFunction<Reply> request) throws Exception {
		CountDownLatch ready = new CountDownLatch(requests);
		CountDownLatch go = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(requests);
		try {
			List<Future<Reply>> futures = new ArrayList<>();
			for (int i = 0; i < requests; i++) {
				int index = i;
				futures.add(threads.submit(() -> {
					ready.countDown();
					go.await();
					return request.apply(index);
				}));
			}
			assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
			go.countDown();
			List<Reply> replies = new ArrayList<>();
			for (Future<Reply> future : futures) {
				replies.add(future.get(60, TimeUnit.SECONDS));
			}
			return replies;
		}
		finally {
			threads.shutdownNow();
		}
	}

	private long count(String sql, String value) {
		return this.jdbc.sql(sql).param(value).query(Long.class).single();
	}

}
