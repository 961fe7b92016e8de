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
 * docs/design.md section 15: a void releases the authorization and no capture succeeds
 * after it; a void racing a capture of all that remains, round after round, leaves
 * exactly one of them the winner, the other refused with its documented problem, and the
 * provider's ledger agreeing.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class VoidIntegrationTests {

	static final int ROUNDS = 20;

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	ApplicationContext context;

	PaymentsApi payments;

	CapturesApi api;

	@BeforeEach
	void setUp() {
		// A void and a capture of one payment overlap at the provider.
		SimulatorSettings.of(this.context).latency(Duration.ofMillis(20));
		this.payments = new PaymentsApi(this.port);
		this.api = new CapturesApi(this.payments);
	}

	@AfterEach
	void resetSimulator() {
		SimulatorSettings.of(this.context).reset();
	}

	@Test
	void voidsTheAuthorizationAndNoCaptureSucceedsAfter() {
		String paymentId = this.api.authorize(1000);
		String key = "void-" + UUID.randomUUID();

		Reply voided = this.api.voidPayment(paymentId, key);
		Reply replayed = this.api.voidPayment(paymentId, key);
		Reply capture = this.api.capture(paymentId, "capture-" + UUID.randomUUID(), "{}");
		Reply again = this.api.voidPayment(paymentId, "void-again-" + UUID.randomUUID());

		assertThat(voided.status()).isEqualTo(200);
		assertThat(voided.field("status")).isEqualTo("SUCCEEDED");
		assertThat(replayed.body()).isEqualTo(voided.body());
		assertThat(replayed.header("Idempotent-Replayed")).contains("true");
		assertThat(capture.status()).isEqualTo(409);
		assertThat(capture.problemType()).endsWith("/payment-not-capturable");
		assertThat(capture.field("paymentStatus")).isEqualTo("VOIDED");
		assertThat(again.status()).isEqualTo(409);
		assertThat(again.problemType()).endsWith("/payment-not-voidable");
		assertThat(this.payments.get("/payments/" + paymentId).field("status")).isEqualTo("VOIDED");
		assertThat(providerVoids(paymentId)).isEqualTo(1);
		assertThat(this.jdbc.sql("SELECT type FROM merchant_events WHERE resource_id = ?::uuid")
			.param(voided.field("id"))
			.query(String.class)
			.list()).as("its merchant event").containsExactly("void.succeeded");
	}

	@Test
	void refusesToVoidACapturedOrAnAutomaticPayment() {
		String captured = this.api.authorize(1000);
		this.api.captureAll(captured, "capture-" + UUID.randomUUID());
		Reply automatic = this.payments.pay("automatic-" + UUID.randomUUID(),
				PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 1000, "ILS"));

		Reply afterCapture = this.api.voidPayment(captured, "void-" + UUID.randomUUID());
		Reply ofAutomatic = this.api.voidPayment(automatic.field("id"), "void-" + UUID.randomUUID());

		assertThat(afterCapture.status()).isEqualTo(409);
		assertThat(afterCapture.problemType()).endsWith("/payment-not-voidable");
		assertThat(afterCapture.field("paymentStatus")).isEqualTo("SUCCEEDED");
		assertThat(ofAutomatic.status()).isEqualTo(409);
		assertThat(ofAutomatic.problemType()).endsWith("/payment-not-voidable");
	}

	@Test
	void exactlyOneOfAVoidAndACaptureRacingWins() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			for (int round = 0; round < ROUNDS; round++) {
				String paymentId = this.api.authorize(1000);
				CountDownLatch go = new CountDownLatch(1);
				Future<Reply> capture = threads.submit(() -> {
					go.await();
					return this.api.captureAll(paymentId, "race-capture-" + UUID.randomUUID());
				});
				Future<Reply> voided = threads.submit(() -> {
					go.await();
					return this.api.voidPayment(paymentId, "race-void-" + UUID.randomUUID());
				});

				go.countDown();
				Reply captureReply = capture.get(30, TimeUnit.SECONDS);
				Reply voidReply = voided.get(30, TimeUnit.SECONDS);

				List<Integer> statuses = new ArrayList<>(List.of(captureReply.status(), voidReply.status()));
				if (captureReply.status() == 201) {
					assertThat(voidReply.status()).isEqualTo(409);
					assertThat(voidReply.problemType()).endsWith("/payment-not-voidable");
					assertThat(providerCaptured(paymentId)).isEqualTo(1000);
					assertThat(providerVoids(paymentId)).isZero();
				}
				else {
					assertThat(statuses).as("round %d", round).containsExactly(409, 200);
					assertThat(captureReply.problemType()).endsWith("/payment-not-capturable");
					assertThat(providerCaptured(paymentId)).isZero();
					assertThat(providerVoids(paymentId)).isEqualTo(1);
				}
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	private long providerCaptured(String paymentId) {
		return this.jdbc.sql("""
				SELECT COALESCE(sum(c.amount), 0) FROM simulated_provider_captures c
				    JOIN payments p ON c.charge_reference = p.provider_reference
				WHERE p.id = CAST(? AS uuid) AND c.outcome = 'SUCCEEDED'""")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

	private long providerVoids(String paymentId) {
		return this.jdbc.sql("""
				SELECT count(*) FROM simulated_provider_voids v
				    JOIN payments p ON v.charge_reference = p.provider_reference
				WHERE p.id = CAST(? AS uuid) AND v.outcome = 'SUCCEEDED'""")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

}
