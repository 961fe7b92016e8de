package dev.payonce.system;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterAll;
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
import dev.payonce.TestCredentials;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * docs/design.md sections 6 and 15: a capture crashed with SIGKILL after the provider
 * captured and before the capture's completion committed, recovered by the client's retry
 * or by the reconciler alone, with one provider capture either way.
 *
 * <p>
 * Setup, once for the class: two manual payments are authorized by the test's own
 * application (which runs no reconciler). Process A writes each capture to the
 * simulator's ledger and then hangs before answering ({@code delay-after-charge}, which
 * the simulator applies to every call that acted); one capture of each payment is sent to
 * it, and it is killed once the ledger holds both, so their clients never get an answer.
 * Then process B (reconciler off) serves the retry of one capture after its lease, and
 * after it process C (reconciler on, no retries) settles the other by lookup.
 */
@Tag("system")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "payonce.reconciliation.enabled=false")
@Import(TestcontainersConfiguration.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CaptureCrashRecoveryIntegrationTests {

	/** Lease 7 s > provider timeout 5 s + margin 1 s; give-up 13 s > lease + timeout. */
	private static final Map<String, String> TIMINGS = Map.of("payonce.gateway.simulator.timeout", "5s",
			"payonce.idempotency.lease", "7s", "payonce.reconciliation.lease-margin", "1s",
			"payonce.reconciliation.give-up-after", "13s");

	private static final String RETRIED_CAPTURE = "{\"amount\":600}";

	private static final String ABANDONED_CAPTURE = "{\"amount\":700}";

	@Autowired
	JdbcClient jdbc;

	@LocalServerPort
	int port;

	@Autowired
	JdbcConnectionDetails database;

	private final String run = UUID.randomUUID().toString();

	private final String retriedKey = "crash-capture-retried-" + this.run;

	private final String abandonedKey = "crash-capture-abandoned-" + this.run;

	private String retriedPayment = "";

	private String abandonedPayment = "";

	private String statusAfterCrash = "";

	private List<Long> amountsAfterCrash = List.of();

	private Reply retryAfterCrash;

	private PayonceProcess reconciling;

	@BeforeAll
	void crashThenRecover() throws Exception {
		PaymentsApi self = new PaymentsApi(this.port);
		this.retriedPayment = authorize(self, "retried", 1000);
		this.abandonedPayment = authorize(self, "abandoned", 1000);
		ExecutorService abandonedClients = Executors.newFixedThreadPool(2);
		try (PayonceProcess hangsAfterCapture = PayonceProcess.start("capture-a-hangs-after-capture", this.database,
				with(Map.of("payonce.gateway.simulator.delay-after-charge", "120s", "payonce.reconciliation.enabled",
						"false")))) {
			hangsAfterCapture.awaitReady();
			PaymentsApi a = new PaymentsApi(hangsAfterCapture.port());
			abandonedClients.submit(() -> a.capture(this.retriedPayment, this.retriedKey, RETRIED_CAPTURE));
			abandonedClients.submit(() -> a.capture(this.abandonedPayment, this.abandonedKey, ABANDONED_CAPTURE));

			await().atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofMillis(10))
				.until(() -> ledgerCaptures(this.retriedPayment) == 1 && ledgerCaptures(this.abandonedPayment) == 1);
			hangsAfterCapture.kill();
		}
		finally {
			abandonedClients.shutdownNow();
		}
		this.statusAfterCrash = status(this.retriedKey);
		this.amountsAfterCrash = captureAmounts(this.retriedPayment);

		try (PayonceProcess retries = PayonceProcess.start("capture-b-serves-retries", this.database,
				with(Map.of("payonce.reconciliation.enabled", "false")))) {
			retries.awaitReady();
			awaitLeaseEnd(this.retriedKey);
			this.retryAfterCrash = new PaymentsApi(retries.port()).capture(this.retriedPayment, this.retriedKey,
					RETRIED_CAPTURE);
		}

		this.reconciling = PayonceProcess.start("capture-c-reconciles", this.database,
				with(Map.of("payonce.reconciliation.interval", "250ms", "payonce.reconciliation.stale-after", "0s")));
		this.reconciling.awaitReady();
		await().atMost(Duration.ofSeconds(60)).until(() -> "COMPLETED".equals(status(this.abandonedKey)));
	}

	@AfterAll
	void stopReconcilingProcess() throws Exception {
		if (this.reconciling != null) {
			this.reconciling.close();
		}
	}

	@Test
	void retryAfterCrashBetweenCaptureAndCompletionReturnsTheOriginalCapture() {
		Reply reply = this.retryAfterCrash;

		assertThat(this.statusAfterCrash).isEqualTo("IN_PROGRESS");
		assertThat(this.amountsAfterCrash).as("captured, in flight after the crash").containsExactly(0L, 600L);
		assertThat(reply.status()).isEqualTo(201);
		assertThat(reply.field("status")).isEqualTo("SUCCEEDED");
		assertThat(reply.field("providerReference")).isEqualTo(ledgerReference(this.retriedPayment));
		assertThat(ledgerCaptures(this.retriedPayment)).isEqualTo(1);
		assertThat(captureRows(this.retriedPayment)).isEqualTo(1);
		assertThat(captureAmounts(this.retriedPayment)).containsExactly(600L, 0L);
	}

	@Test
	void reconcilerSettlesAnAbandonedCaptureByLookupAlone() {
		PaymentsApi c = new PaymentsApi(this.reconciling.port());

		Reply replay = c.capture(this.abandonedPayment, this.abandonedKey, ABANDONED_CAPTURE);

		assertThat(replay.status()).isEqualTo(201);
		assertThat(replay.header("Idempotent-Replayed")).contains("true");
		assertThat(replay.field("status")).isEqualTo("SUCCEEDED");
		assertThat(replay.field("providerReference")).isEqualTo(ledgerReference(this.abandonedPayment));
		assertThat(ledgerCaptures(this.abandonedPayment)).isEqualTo(1);
		assertThat(captureRows(this.abandonedPayment)).isEqualTo(1);
		assertThat(captureAmounts(this.abandonedPayment)).containsExactly(700L, 0L);
	}

	@Test
	void reconcilerSettledTheAbandonedCaptureOnce() {
		Reply metrics = new PaymentsApi(this.reconciling.port(), TestCredentials.ADMIN_TOKEN)
			.get("/actuator/prometheus");

		assertThat(metrics.status()).isEqualTo(200);
		assertThat(metrics.body()).contains(
				"payonce_reconciliation_outcomes_total{operation=\"capture\",outcome=\"found\"} 1.0",
				"payonce_provider_calls_seconds_count{operation=\"capture_lookup\",outcome=\"approved\"} 1",
				"payonce_captures_total{status=\"succeeded\"} 1.0");
		assertThat(metrics.body())
			.doesNotContainPattern("payonce_provider_calls_seconds_count\\{operation=\"capture\",");
	}

	private static String authorize(PaymentsApi api, String name, long amount) {
		Reply authorized = api.pay("crash-authorize-" + name + "-" + UUID.randomUUID(), """
				{"orderId":"order-%s","amount":%d,"currency":"ILS","capture":"manual"}""".formatted(UUID.randomUUID(),
				amount));
		assertThat(authorized.status()).isEqualTo(201);
		assertThat(authorized.field("status")).isEqualTo("AUTHORIZED");
		return authorized.field("id");
	}

	private static Map<String, String> with(Map<String, String> settings) {
		Map<String, String> all = new HashMap<>(TIMINGS);
		all.putAll(settings);
		return all;
	}

	private void awaitLeaseEnd(String key) {
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.jdbc.sql("""
					SELECT locked_until <= now() FROM idempotency_records WHERE idempotency_key = ?""")
				.param(key)
				.query(Boolean.class)
				.single());
	}

	private String status(String key) {
		return this.jdbc.sql("SELECT status FROM idempotency_records WHERE idempotency_key = ?")
			.param(key)
			.query(String.class)
			.single();
	}

	/** The payment's captured amount and captures in flight, in minor units. */
	private List<Long> captureAmounts(String paymentId) {
		return this.jdbc.sql("SELECT captured_amount, captures_in_flight FROM payments WHERE id = CAST(? AS uuid)")
			.param(paymentId)
			.query((rs, row) -> List.of(rs.getLong(1), rs.getLong(2)))
			.single();
	}

	private long captureRows(String paymentId) {
		return this.jdbc.sql("SELECT count(*) FROM captures WHERE payment_id = CAST(? AS uuid)")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

	private long ledgerCaptures(String paymentId) {
		return this.jdbc
			.sql("""
					SELECT count(*) FROM simulated_provider_captures c JOIN payments p ON c.charge_reference = p.provider_reference
					WHERE p.id = CAST(? AS uuid)""")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

	private String ledgerReference(String paymentId) {
		return this.jdbc.sql("""
				SELECT c.provider_reference FROM simulated_provider_captures c
				  JOIN payments p ON c.charge_reference = p.provider_reference
				WHERE p.id = CAST(? AS uuid)""").param(paymentId).query(String.class).single();
	}

}
