package dev.payonce.client.web;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-client limits over real HTTP on real PostgreSQL (docs/design.md section 13): a
 * client over its request rate gets 429 {@code rate-limit-exceeded} with
 * {@code Retry-After} and writes nothing, while another client is unaffected; a client
 * holding the most live idempotency records allowed gets 429
 * {@code idempotency-quota-exceeded} for a new key, while its existing keys still replay.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "payonce.security.rate-limit.requests-per-second=1", "payonce.security.rate-limit.burst=6",
				"payonce.idempotency.quota.max-live-records=3", "payonce.idempotency.quota.check-interval=1ms" })
@Import(TestcontainersConfiguration.class)
class ClientLimitsIntegrationTests {

	private static final int REQUESTS = 16;

	private static final int BURST = 6;

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	AdminApi admin;

	@BeforeEach
	void setUp() {
		this.admin = new AdminApi(this.port);
	}

	@Test
	void refusesAClientOverItsRateWith429AndRetryAfterButNotOthers() throws Exception {
		PaymentsApi hasty = new PaymentsApi(this.port, this.admin.newClientKey("hasty"));
		PaymentsApi calm = new PaymentsApi(this.port, this.admin.newClientKey("calm"));
		// One key for every request, so the live-record cap of this test class (3) never
		// applies: each request is the payment, a 409 or its replay, or over the rate.
		String key = "rate-" + UUID.randomUUID();
		CountDownLatch go = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(REQUESTS);
		List<Future<Reply>> sent = new ArrayList<>();
		try {
			for (int i = 0; i < REQUESTS; i++) {
				sent.add(threads.submit(() -> {
					go.await();
					return hasty.pay(key, "{\"orderId\":\"rate\",\"amount\":100,\"currency\":\"ILS\"}");
				}));
			}

			long started = System.nanoTime();
			go.countDown();
			List<Reply> replies = new ArrayList<>();
			for (Future<Reply> reply : sent) {
				replies.add(reply.get(60, TimeUnit.SECONDS));
			}
			long elapsedSeconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + 1;
			Reply calmReply = calm.get("/payments/" + UUID.randomUUID());

			List<Reply> limited = replies.stream().filter((reply) -> reply.status() == 429).toList();
			long admitted = replies.stream().filter((reply) -> reply.status() == 201 || reply.status() == 409).count();
			assertThat(admitted + limited.size()).isEqualTo(REQUESTS);
			assertThat(admitted).isBetween(1L, BURST + elapsedSeconds);
			assertThat(limited).isNotEmpty().allSatisfy((reply) -> {
				assertThat(reply.problemType()).isEqualTo("https://payonce.dev/problems/rate-limit-exceeded");
				assertThat(reply.header("Content-Type")).contains("application/problem+json");
				assertThat(reply.header("Retry-After"))
					.hasValueSatisfying((seconds) -> assertThat(Long.parseLong(seconds)).isPositive());
			});
			assertThat(records(key)).isEqualTo(1);
			assertThat(calmReply.status()).isEqualTo(404);
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void refusesANewKeyOverTheLiveRecordCapButStillReplaysExistingKeys() {
		PaymentsApi busy = new PaymentsApi(this.port, this.admin.newClientKey("busy"));
		PaymentsApi other = new PaymentsApi(this.port, this.admin.newClientKey("other"));
		String keyPrefix = "cap-" + UUID.randomUUID() + "-";
		String body = "{\"orderId\":\"cap\",\"amount\":100,\"currency\":\"ILS\"}";
		List<Reply> first = List.of(busy.pay(keyPrefix + 1, body), busy.pay(keyPrefix + 2, body),
				busy.pay(keyPrefix + 3, body));

		Reply overCap = busy.pay(keyPrefix + 4, body);
		Reply replay = busy.pay(keyPrefix + 1, body);
		Reply otherClient = other.pay(keyPrefix + 1, body);

		assertThat(first).allSatisfy((reply) -> assertThat(reply.status()).isEqualTo(201));
		assertThat(overCap.status()).isEqualTo(429);
		assertThat(overCap.problemType()).isEqualTo("https://payonce.dev/problems/idempotency-quota-exceeded");
		// The oldest stored response expires after the 24 h retention.
		assertThat(overCap.header("Retry-After"))
			.hasValueSatisfying((seconds) -> assertThat(Long.parseLong(seconds)).isBetween(23 * 3600L, 24 * 3600L));
		assertThat(records(keyPrefix + 4)).isZero();
		assertThat(replay.status()).isEqualTo(201);
		assertThat(replay.header("Idempotent-Replayed")).contains("true");
		assertThat(otherClient.status()).isEqualTo(201);
	}

	@Test
	void refusesANewRefundKeyOverTheLiveRecordCapToo() {
		PaymentsApi busy = new PaymentsApi(this.port, this.admin.newClientKey("busy-refunds"));
		String keyPrefix = "cap-refund-" + UUID.randomUUID() + "-";
		String body = "{\"orderId\":\"cap\",\"amount\":100,\"currency\":\"ILS\"}";
		Reply payment = busy.pay(keyPrefix + 1, body);
		busy.pay(keyPrefix + 2, body);
		busy.pay(keyPrefix + 3, body);

		Reply overCap = busy.refund(payment.field("id"), keyPrefix + "refund", "{\"amount\":10}");

		assertThat(payment.status()).isEqualTo(201);
		assertThat(overCap.status()).isEqualTo(429);
		assertThat(overCap.problemType()).isEqualTo("https://payonce.dev/problems/idempotency-quota-exceeded");
		assertThat(records(keyPrefix + "refund")).isZero();
		assertThat(this.jdbc.sql("SELECT count(*) FROM refunds WHERE payment_id = ?::uuid")
			.param(payment.field("id"))
			.query(Long.class)
			.single()).isZero();
	}

	private long records(String keyPattern) {
		return this.jdbc.sql("SELECT count(*) FROM idempotency_records WHERE idempotency_key LIKE ?")
			.param(keyPattern)
			.query(Long.class)
			.single();
	}

}
