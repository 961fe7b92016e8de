package dev.payonce.capture.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.gateway.simulator.SimulatorSettings;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md section 15: the capture invariant under concurrency. 64 real threads
 * released together through the real HTTP server to real PostgreSQL, the simulated
 * provider taking 50 ms so that reservations overlap with captures in flight: with one
 * capture key the provider captures once; with 64 keys whose amounts sum to twice the
 * authorized amount the captured total never exceeds it, each key makes at most one
 * provider capture, and every answer is final or retryable.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class ConcurrentCaptureIntegrationTests {

	static final int REQUESTS = 64;

	static final long AMOUNT = 3200;

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	ApplicationContext context;

	CapturesApi api;

	@BeforeEach
	void setUp() {
		// Reservations overlap with captures in flight.
		SimulatorSettings.of(this.context).latency(Duration.ofMillis(50));
		this.api = new CapturesApi(new PaymentsApi(this.port));
	}

	@AfterEach
	void resetSimulator() {
		SimulatorSettings.of(this.context).reset();
	}

	@Test
	void capturesOnceForConcurrentRequestsWithOneKey() throws Exception {
		String paymentId = this.api.authorize(AMOUNT);
		String key = "capture-storm-" + UUID.randomUUID();

		List<Reply> replies = sendTogether((i) -> this.api.capture(paymentId, key, "{\"amount\":1000}"));

		assertThat(replies).allSatisfy((reply) -> assertThat(reply.status()).isIn(201, 409));
		List<Reply> created = replies.stream().filter((reply) -> reply.status() == 201).toList();
		assertThat(created).isNotEmpty();
		assertThat(created).allSatisfy((reply) -> assertThat(reply.body()).isEqualTo(created.get(0).body()));
		assertThat(created.stream().filter((reply) -> reply.header("Idempotent-Replayed").isEmpty())).hasSize(1);
		assertThat(replies.stream().filter((reply) -> reply.status() == 409))
			.allSatisfy((reply) -> assertThat(reply.problemType()).endsWith("/idempotency-request-in-progress"));
		assertThat(ledger(paymentId)).isEqualTo(new Ledger(1, 1000, 1));
		assertThat(count("SELECT count(*) FROM captures WHERE payment_id = CAST(? AS uuid)", paymentId)).isEqualTo(1);
	}

	@Test
	void neverCapturesMoreThanAuthorizedWhenSixtyFourKeysAskForTwiceAsMuch() throws Exception {
		String paymentId = this.api.authorize(AMOUNT);
		long each = 2 * AMOUNT / REQUESTS;

		List<Reply> replies = sendTogether(
				(i) -> this.api.capture(paymentId, "part-" + i + "-" + UUID.randomUUID(), "{\"amount\":" + each + "}"));

		List<Reply> created = replies.stream().filter((reply) -> reply.status() == 201).toList();
		assertThat(replies.stream().filter((reply) -> reply.status() != 201)).allSatisfy((reply) -> {
			// Refused in the claim: more than is left, or nothing left once the last
			// capture completed and the payment became SUCCEEDED.
			assertThat(reply.status()).isEqualTo(409);
			assertThat(reply.problemType()).matches(".*/(capture-exceeds-capturable|payment-not-capturable)");
		});
		assertThat(created).hasSize((int) (AMOUNT / each));
		Ledger ledger = ledger(paymentId);
		assertThat(ledger.total()).isEqualTo(AMOUNT);
		assertThat(ledger.captures()).isEqualTo(created.size());
		assertThat(ledger.mostPerKey()).isEqualTo(1);
		assertThat(count("SELECT captured_amount FROM payments WHERE id = CAST(? AS uuid)", paymentId))
			.isEqualTo(AMOUNT);
		assertThat(count("SELECT captures_in_flight FROM payments WHERE id = CAST(? AS uuid)", paymentId)).isZero();
	}

	/**
	 * The provider's captures of the payment's charge: how many, their sum, the most
	 * under one key.
	 */
	private Ledger ledger(String paymentId) {
		return this.jdbc
			.sql("""
					SELECT count(*) AS captures, COALESCE(sum(c.amount), 0) AS total,
					    COALESCE(max(per_key.n), 0) AS most_per_key
					FROM simulated_provider_captures c JOIN payments p ON c.charge_reference = p.provider_reference
					LEFT JOIN (SELECT provider_idempotency_key, count(*) AS n FROM simulated_provider_captures
					    GROUP BY provider_idempotency_key) per_key ON per_key.provider_idempotency_key = c.provider_idempotency_key
					WHERE p.id = CAST(? AS uuid) AND c.outcome = 'SUCCEEDED'""")
			.param(paymentId)
			.query((rs, row) -> new Ledger(rs.getLong("captures"), rs.getLong("total"), rs.getLong("most_per_key")))
			.single();
	}

	private List<Reply> sendTogether(IntFunction<Reply> request) throws Exception {
		CountDownLatch ready = new CountDownLatch(REQUESTS);
		CountDownLatch go = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(REQUESTS);
		try {
			List<Future<Reply>> futures = new ArrayList<>();
			for (int i = 0; i < REQUESTS; i++) {
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

	record Ledger(long captures, long total, long mostPerKey) {
	}

}
