package dev.payonce.payment.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.MeterReadings;
import dev.payonce.OffsetClock;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * docs/design.md section 4, steps 4 and 5: leases, takeover fenced by the attempt number,
 * and the bounded wait for an in-progress request. The simulated provider answers 2 s
 * after writing a new charge (a slow network), and the clock can be moved past the 5 s
 * lease, as a stalled process would see it.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "payonce.gateway.simulator.delay-after-charge=2s", "payonce.gateway.simulator.timeout=3s",
				"payonce.reconciliation.lease-margin=1s", "payonce.idempotency.lease=5s",
				"payonce.idempotency.in-progress-wait=7s", "payonce.reconciliation.enabled=false" })
@Import({ TestcontainersConfiguration.class, OffsetClock.Installed.class })
@ExtendWith(OutputCaptureExtension.class)
class LeaseIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	OffsetClock clock;

	@Autowired
	MeterRegistry meters;

	PaymentsApi api;

	@BeforeEach
	void setUp() {
		this.api = new PaymentsApi(this.port);
	}

	@Test
	void rejectsStaleAttemptsCompletionAfterAnotherAttemptTookOver(CapturedOutput output) throws Exception {
		String key = "fenced-" + UUID.randomUUID();
		String body = PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 6100, "ILS");
		ExecutorService slowClient = Executors.newSingleThreadExecutor();
		try {
			double takeovers = new MeterReadings(this.meters).claims("takeover");
			Future<Reply> slow = slowClient.submit(() -> this.api.pay(key, body));
			await().atMost(Duration.ofSeconds(10)).until(() -> ledgerRows(key) == 1);
			this.clock.advance(Duration.ofSeconds(6), this.jdbc);

			Reply takeover = this.api.pay(key, body);
			Reply stale = slow.get(10, TimeUnit.SECONDS);

			assertThat(takeover.status()).isEqualTo(201);
			assertThat(takeover.header("Idempotent-Replayed")).isEmpty();
			assertThat(stale.status()).isEqualTo(409);
			assertThat(stale.problemType()).endsWith("/idempotency-request-in-progress");
			assertThat(output).contains("Stale attempt's completion rejected");
			assertThat(new MeterReadings(this.meters).claims("takeover") - takeovers).isEqualTo(1);
			assertThat(this.jdbc.sql("""
					SELECT attempt FROM idempotency_records WHERE idempotency_key = ? AND status = 'COMPLETED'""")
				.param(key)
				.query(Integer.class)
				.single()).isEqualTo(2);
			assertThat(storedBody(key)).isEqualTo(takeover.body());
			assertThat(ledgerRows(key)).isEqualTo(1);
			assertThat(this.api.get("/payments/" + takeover.field("id")).field("status")).isEqualTo("SUCCEEDED");
			assertThat(this.api.pay(key, body).body()).isEqualTo(takeover.body());
		}
		finally {
			slowClient.shutdownNow();
		}
	}

	@Test
	void waitsForInProgressRequestAndReplaysInsteadOfAnswering409() throws Exception {
		String key = "waiting-" + UUID.randomUUID();
		String body = PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 6200, "ILS");
		int clients = 8;
		CountDownLatch go = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(clients);
		try {
			List<Future<Reply>> futures = new ArrayList<>();
			for (int i = 0; i < clients; i++) {
				futures.add(threads.submit(() -> {
					go.await();
					return this.api.pay(key, body);
				}));
			}

			go.countDown();
			List<Reply> replies = new ArrayList<>();
			for (Future<Reply> future : futures) {
				replies.add(future.get(30, TimeUnit.SECONDS));
			}

			assertThat(replies).allSatisfy((reply) -> {
				assertThat(reply.status()).isEqualTo(201);
				assertThat(reply.body()).isEqualTo(replies.get(0).body());
			});
			assertThat(replies.stream().filter((reply) -> reply.header("Idempotent-Replayed").isEmpty())).hasSize(1);
			assertThat(ledgerRows(key)).isEqualTo(1);
		}
		finally {
			threads.shutdownNow();
		}
	}

	private long ledgerRows(String key) {
		return this.jdbc.sql("""
				SELECT count(*) FROM simulated_provider_charges c
				JOIN idempotency_records r ON c.provider_idempotency_key = 'payonce-payment-' || r.resource_id
				WHERE r.idempotency_key = ?""").param(key).query(Long.class).single();
	}

	private String storedBody(String key) {
		return this.jdbc.sql("SELECT response_body FROM idempotency_records WHERE idempotency_key = ?")
			.param(key)
			.query(String.class)
			.single();
	}

}
