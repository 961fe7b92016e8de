package dev.payonce.refund.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

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

import dev.payonce.PayonceProcess;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.gateway.simulator.SimulatorSettings;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md section 8: the refund invariant under concurrency. 64 real threads
 * released together through the real HTTP server to real PostgreSQL: with one refund key
 * the provider refunds once; with 64 keys each asking a quarter of the payment, exactly
 * four refunds succeed, every other one is refused before the provider is called, and the
 * provider's refund ledger sums to the payment's amount; the same with the requests
 * spread across two instances (the second a separate process on the same database). The
 * simulated provider takes 50 ms, so reservations overlap with refunds in flight.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class ConcurrentRefundIntegrationTests {

	static final int REQUESTS = 64;

	static final long AMOUNT = 4000;

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	JdbcConnectionDetails database;

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
	void refundsOnceForConcurrentRequestsWithOneKey() throws Exception {
		String paymentId = pay();
		String key = "refund-storm-" + UUID.randomUUID();

		List<Reply> replies = sendTogether((i) -> this.api.refund(paymentId, key, "{\"amount\":1000}"));

		assertThat(replies).allSatisfy((reply) -> assertThat(reply.status()).isIn(201, 409));
		List<Reply> created = replies.stream().filter((reply) -> reply.status() == 201).toList();
		assertThat(created).isNotEmpty();
		assertThat(created).allSatisfy((reply) -> assertThat(reply.body()).isEqualTo(created.get(0).body()));
		assertThat(created.stream().filter((reply) -> reply.header("Idempotent-Replayed").isEmpty())).hasSize(1);
		assertThat(replies.stream().filter((reply) -> reply.status() == 409))
			.allSatisfy((reply) -> assertThat(reply.problemType()).endsWith("/idempotency-request-in-progress"));
		assertThat(ledger(paymentId)).isEqualTo(new Ledger(1, 1000));
		assertThat(count("SELECT count(*) FROM refunds WHERE payment_id = CAST(? AS uuid)", paymentId)).isEqualTo(1);
	}

	@Test
	void exactlyFourQuarterRefundsSucceedAmongSixtyFourKeys() throws Exception {
		String paymentId = pay();

		List<Reply> replies = sendTogether(
				(i) -> this.api.refund(paymentId, "quarter-" + UUID.randomUUID(), "{\"amount\":" + AMOUNT / 4 + "}"));

		assertQuarters(paymentId, replies);
	}

	@Test
	@Tag("system")
	void exactlyFourQuarterRefundsSucceedAcrossTwoInstances() throws Exception {
		try (PayonceProcess second = PayonceProcess.start("refund-second-instance", this.database,
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
			String paymentId = pay();

			List<Reply> replies = sendTogether((i) -> ((i % 2 == 0) ? this.api : other).refund(paymentId,
					"quarter-two-" + UUID.randomUUID(), "{\"amount\":" + AMOUNT / 4 + "}"));

			assertQuarters(paymentId, replies);
		}
	}

	private void assertQuarters(String paymentId, List<Reply> replies) {
		assertThat(replies.stream().filter((reply) -> reply.status() == 201)).hasSize(4);
		assertThat(replies.stream().filter((reply) -> reply.status() != 201)).hasSize(REQUESTS - 4)
			.allSatisfy((reply) -> {
				assertThat(reply.status()).isEqualTo(409);
				assertThat(reply.problemType()).endsWith("/refund-exceeds-refundable");
			});
		assertThat(ledger(paymentId)).isEqualTo(new Ledger(4, AMOUNT));
		assertThat(count("SELECT refunded_amount FROM payments WHERE id = CAST(? AS uuid)", paymentId))
			.isEqualTo(AMOUNT);
		assertThat(count("SELECT refunds_in_flight FROM payments WHERE id = CAST(? AS uuid)", paymentId)).isZero();
		assertThat(count("SELECT count(*) FROM refunds WHERE payment_id = CAST(? AS uuid)", paymentId)).isEqualTo(4);
	}

	private String pay() {
		Reply paid = this.api.pay("refundable-" + UUID.randomUUID(),
				PaymentsApi.paymentBody("order-" + UUID.randomUUID(), AMOUNT, "ILS"));
		assertThat(paid.status()).isEqualTo(201);
		return paid.field("id");
	}

	/** The provider's refunds of the payment's charge: how many, and their sum. */
	private Ledger ledger(String paymentId) {
		return this.jdbc.sql("""
				SELECT count(*) AS refunds, COALESCE(sum(r.amount), 0) AS total
				FROM simulated_provider_refunds r JOIN payments p ON r.charge_reference = p.provider_reference
				WHERE p.id = CAST(? AS uuid) AND r.outcome = 'SUCCEEDED'""")
			.param(paymentId)
			.query((rs, row) -> new Ledger(rs.getLong("refunds"), rs.getLong("total")))
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

	record Ledger(long refunds, long total) {
	}

}
