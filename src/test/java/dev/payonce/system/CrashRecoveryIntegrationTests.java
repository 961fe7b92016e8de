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
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import dev.payonce.payment.web.PaymentsApi;

/**
 * docs/design.md section 6: crashes of a real process, killed with SIGKILL at the two
 * dangerous moments, and the recovery afterwards by a client retry or by the reconciler
 * alone.
 *
 * <p>
 * Setup, once for the class: process A1 writes each charge and each refund to the
 * provider's ledger and then hangs before answering; process A2 claims and hangs before
 * calling the provider. Two payments are sent to each, and two refunds of payments that
 * already succeeded to A1; both processes are killed once the ledger (A1) or the claim
 * (A2) shows them, and their clients never get an answer. Then process B (reconciler off)
 * serves the client retries, and after it process C (reconciler on, no retries) finishes
 * the rest. The test's own application context runs no reconciler: on a slow machine it
 * would otherwise settle a crashed payment or refund before process C starts.
 */
@Tag("system")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "payonce.reconciliation.enabled=false")
@Import(TestcontainersConfiguration.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrashRecoveryIntegrationTests {

	/** Lease 7 s > provider timeout 5 s + margin 1 s; give-up 13 s > lease + timeout. */
	private static final Map<String, String> TIMINGS = Map.of("payonce.gateway.simulator.timeout", "5s",
			"payonce.idempotency.lease", "7s", "payonce.reconciliation.lease-margin", "1s",
			"payonce.reconciliation.give-up-after", "13s");

	@Autowired
	JdbcClient jdbc;

	@LocalServerPort
	int port;

	@Autowired
	JdbcConnectionDetails database;

	private final String run = UUID.randomUUID().toString();

	private final Payment chargedThenRetried = new Payment("charged-retried", 1100);

	private final Payment chargedThenReconciled = new Payment("charged-reconciled", 1200);

	private final Payment claimedThenRetried = new Payment("claimed-retried", 1300);

	private final Payment claimedThenReconciled = new Payment("claimed-reconciled", 1400);

	private final String refundRetriedKey = "crash-refund-retried-" + this.run;

	private final String refundReconciledKey = "crash-refund-reconciled-" + this.run;

	private String refundedThenRetried = "";

	private String refundedThenReconciled = "";

	private Reply retryAfterRefundCrash;

	private Reply retryAfterChargeCrash;

	private Reply retryAfterClaimCrash;

	private long ledgerBeforeClaimCrashRetry;

	private PayonceProcess reconciling;

	@BeforeAll
	void crashThenRecover() throws Exception {
		PaymentsApi self = new PaymentsApi(this.port);
		this.refundedThenRetried = self
			.pay("crash-refundable-1-" + this.run,
					PaymentsApi.paymentBody("order-refundable-1-" + this.run, 2100, "ILS"))
			.field("id");
		this.refundedThenReconciled = self
			.pay("crash-refundable-2-" + this.run,
					PaymentsApi.paymentBody("order-refundable-2-" + this.run, 2200, "ILS"))
			.field("id");
		ExecutorService abandonedClients = Executors.newFixedThreadPool(6);
		try (PayonceProcess hangsAfterCharge = PayonceProcess.start("a1-hangs-after-charge", this.database,
				with(Map.of("payonce.gateway.simulator.delay-after-charge", "120s", "payonce.reconciliation.enabled",
						"false")));
				PayonceProcess hangsBeforeCharge = PayonceProcess.start("a2-hangs-before-charge", this.database,
						with(Map.of("payonce.gateway.simulator.latency", "120s", "payonce.reconciliation.enabled",
								"false")))) {
			hangsAfterCharge.awaitReady();
			hangsBeforeCharge.awaitReady();
			PaymentsApi a1 = new PaymentsApi(hangsAfterCharge.port());
			PaymentsApi a2 = new PaymentsApi(hangsBeforeCharge.port());
			abandonedClients.submit(() -> a1.pay(this.chargedThenRetried.key(), this.chargedThenRetried.body()));
			abandonedClients.submit(() -> a1.pay(this.chargedThenReconciled.key(), this.chargedThenReconciled.body()));
			abandonedClients
				.submit(() -> a1.refund(this.refundedThenRetried, this.refundRetriedKey, "{\"amount\":700}"));
			abandonedClients
				.submit(() -> a1.refund(this.refundedThenReconciled, this.refundReconciledKey, "{\"amount\":800}"));
			abandonedClients.submit(() -> a2.pay(this.claimedThenRetried.key(), this.claimedThenRetried.body()));
			abandonedClients.submit(() -> a2.pay(this.claimedThenReconciled.key(), this.claimedThenReconciled.body()));

			await().atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofMillis(10))
				.until(() -> ledgerRows(this.chargedThenRetried) == 1 && ledgerRows(this.chargedThenReconciled) == 1
						&& refundLedgerRows(this.refundedThenRetried) == 1
						&& refundLedgerRows(this.refundedThenReconciled) == 1);
			hangsAfterCharge.kill();
			await().atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofMillis(10))
				.until(() -> claimed(this.claimedThenRetried) && claimed(this.claimedThenReconciled));
			hangsBeforeCharge.kill();
		}
		finally {
			abandonedClients.shutdownNow();
		}
		assertThat(status(this.chargedThenRetried)).isEqualTo("IN_PROGRESS");
		assertThat(status(this.claimedThenRetried)).isEqualTo("IN_PROGRESS");

		try (PayonceProcess retries = PayonceProcess.start("b-serves-retries", this.database,
				with(Map.of("payonce.reconciliation.enabled", "false")))) {
			retries.awaitReady();
			PaymentsApi b = new PaymentsApi(retries.port());
			awaitLeaseEnd(this.chargedThenRetried);
			this.retryAfterChargeCrash = b.pay(this.chargedThenRetried.key(), this.chargedThenRetried.body());
			awaitLeaseEnd(this.refundRetriedKey);
			this.retryAfterRefundCrash = b.refund(this.refundedThenRetried, this.refundRetriedKey, "{\"amount\":700}");
			awaitLeaseEnd(this.claimedThenRetried);
			this.ledgerBeforeClaimCrashRetry = ledgerRows(this.claimedThenRetried);
			this.retryAfterClaimCrash = b.pay(this.claimedThenRetried.key(), this.claimedThenRetried.body());
		}

		this.reconciling = PayonceProcess.start("c-reconciles", this.database,
				with(Map.of("payonce.reconciliation.interval", "250ms", "payonce.reconciliation.stale-after", "0s")));
		this.reconciling.awaitReady();
		await().atMost(Duration.ofSeconds(60))
			.until(() -> "COMPLETED".equals(status(this.chargedThenReconciled))
					&& "COMPLETED".equals(status(this.claimedThenReconciled))
					&& "COMPLETED".equals(status(this.refundReconciledKey)));
	}

	@AfterAll
	void stopReconcilingProcess() throws Exception {
		if (this.reconciling != null) {
			this.reconciling.close();
		}
	}

	@Test
	void retryAfterCrashBetweenChargeAndCompletionReturnsTheOriginalCharge() {
		Reply reply = this.retryAfterChargeCrash;

		assertThat(reply.status()).isEqualTo(201);
		assertThat(reply.field("status")).isEqualTo("SUCCEEDED");
		assertThat(reply.field("providerReference")).isEqualTo(ledgerReference(this.chargedThenRetried));
		assertThat(ledgerRows(this.chargedThenRetried)).isEqualTo(1);
		assertThat(paymentRows(this.chargedThenRetried)).isEqualTo(1);
	}

	@Test
	void retryAfterCrashBetweenClaimAndProviderCallChargesOnce() {
		Reply reply = this.retryAfterClaimCrash;

		assertThat(this.ledgerBeforeClaimCrashRetry).isZero();
		assertThat(reply.status()).isEqualTo(201);
		assertThat(reply.field("providerReference")).isEqualTo(ledgerReference(this.claimedThenRetried));
		assertThat(ledgerRows(this.claimedThenRetried)).isEqualTo(1);
		assertThat(paymentRows(this.claimedThenRetried)).isEqualTo(1);
	}

	@Test
	void reconcilerCompletesCrashedPaymentTheProviderChargedWithoutAnyRetry() {
		PaymentsApi c = new PaymentsApi(this.reconciling.port());

		Reply replay = c.pay(this.chargedThenReconciled.key(), this.chargedThenReconciled.body());

		assertThat(paymentStatus(this.chargedThenReconciled)).isEqualTo("SUCCEEDED");
		assertThat(replay.status()).isEqualTo(201);
		assertThat(replay.header("Idempotent-Replayed")).contains("true");
		assertThat(replay.field("providerReference")).isEqualTo(ledgerReference(this.chargedThenReconciled));
		assertThat(ledgerRows(this.chargedThenReconciled)).isEqualTo(1);
	}

	@Test
	void reconcilerGivesUpCrashedPaymentTheProviderNeverSaw() {
		PaymentsApi c = new PaymentsApi(this.reconciling.port());

		Reply replay = c.pay(this.claimedThenReconciled.key(), this.claimedThenReconciled.body());

		assertThat(paymentStatus(this.claimedThenReconciled)).isEqualTo("FAILED");
		assertThat(replay.status()).isEqualTo(402);
		assertThat(replay.problemType()).endsWith("/payment-failed");
		assertThat(replay.header("Idempotent-Replayed")).contains("true");
		assertThat(ledgerRows(this.claimedThenReconciled)).isZero();
	}

	@Test
	void retryAfterCrashBetweenRefundAndCompletionReturnsTheOriginalRefund() {
		Reply reply = this.retryAfterRefundCrash;

		assertThat(reply.status()).isEqualTo(201);
		assertThat(reply.field("status")).isEqualTo("SUCCEEDED");
		assertThat(reply.field("providerReference")).isEqualTo(refundLedgerReference(this.refundedThenRetried));
		assertThat(refundLedgerRows(this.refundedThenRetried)).isEqualTo(1);
		assertThat(paymentAmounts(this.refundedThenRetried)).containsExactly(700L, 0L);
	}

	@Test
	void reconcilerSettlesAnAbandonedRefundByLookupAlone() {
		PaymentsApi c = new PaymentsApi(this.reconciling.port());

		Reply replay = c.refund(this.refundedThenReconciled, this.refundReconciledKey, "{\"amount\":800}");

		assertThat(replay.status()).isEqualTo(201);
		assertThat(replay.header("Idempotent-Replayed")).contains("true");
		assertThat(replay.field("providerReference")).isEqualTo(refundLedgerReference(this.refundedThenReconciled));
		assertThat(refundLedgerRows(this.refundedThenReconciled)).isEqualTo(1);
		assertThat(paymentAmounts(this.refundedThenReconciled)).containsExactly(800L, 0L);
	}

	@Test
	void reconcilerCountsWhatItSettled() {
		Reply metrics = new PaymentsApi(this.reconciling.port(), TestCredentials.ADMIN_TOKEN)
			.get("/actuator/prometheus");

		assertThat(metrics.status()).isEqualTo(200);
		assertThat(metrics.body()).contains(
				"payonce_reconciliation_outcomes_total{operation=\"payment\",outcome=\"found\"} 1.0",
				"payonce_reconciliation_outcomes_total{operation=\"payment\",outcome=\"failed\"} 1.0",
				"payonce_provider_calls_seconds_count{operation=\"lookup\",outcome=\"approved\"} 1",
				"payonce_payments_total{status=\"failed\"} 1.0",
				"payonce_reconciliation_outcomes_total{operation=\"refund\",outcome=\"found\"} 1.0",
				"payonce_provider_calls_seconds_count{operation=\"refund_lookup\",outcome=\"approved\"} 1");
		// The never-charged payment is looked up once per run until give-up-after has
		// passed
		// since its creation; the reconciler's first run may come just before that
		// moment.
		assertThat(metrics.body()).containsPattern(
				"payonce_provider_calls_seconds_count\\{operation=\"lookup\",outcome=\"not_attempted\"} [1-9]");
	}

	@Test
	void refusesToStartWhenTheLeaseIsNotLongerThanTheProviderCall() throws Exception {
		try (PayonceProcess misconfigured = PayonceProcess.start("d-lease-too-short", this.database,
				Map.of("payonce.gateway.simulator.timeout", "10s", "payonce.idempotency.lease", "12s"))) {
			int exitCode = misconfigured.awaitExit(Duration.ofSeconds(120));

			assertThat(exitCode).isNotZero();
			assertThat(misconfigured.log()).contains("APPLICATION FAILED TO START",
					"payonce.idempotency.lease (PT12S) must be longer");
		}
	}

	private static Map<String, String> with(Map<String, String> settings) {
		Map<String, String> all = new HashMap<>(TIMINGS);
		all.putAll(settings);
		return all;
	}

	private void awaitLeaseEnd(Payment payment) {
		awaitLeaseEnd(payment.key());
	}

	private void awaitLeaseEnd(String key) {
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.jdbc.sql("""
					SELECT locked_until <= now() FROM idempotency_records WHERE idempotency_key = ?""")
				.param(key)
				.query(Boolean.class)
				.single());
	}

	private long refundLedgerRows(String paymentId) {
		return this.jdbc
			.sql("""
					SELECT count(*) FROM simulated_provider_refunds r JOIN payments p ON r.charge_reference = p.provider_reference
					WHERE p.id = CAST(? AS uuid)""")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

	private String refundLedgerReference(String paymentId) {
		return this.jdbc.sql("""
				SELECT r.provider_reference FROM simulated_provider_refunds r
				  JOIN payments p ON r.charge_reference = p.provider_reference
				WHERE p.id = CAST(? AS uuid)""").param(paymentId).query(String.class).single();
	}

	/** The payment's refunded amount and refunds in flight. */
	private List<Long> paymentAmounts(String paymentId) {
		return this.jdbc.sql("SELECT refunded_amount, refunds_in_flight FROM payments WHERE id = CAST(? AS uuid)")
			.param(paymentId)
			.query((rs, row) -> List.of(rs.getLong(1), rs.getLong(2)))
			.single();
	}

	private boolean claimed(Payment payment) {
		return this.jdbc.sql("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?")
			.param(payment.key())
			.query(Long.class)
			.single() == 1;
	}

	private String status(Payment payment) {
		return status(payment.key());
	}

	private String status(String key) {
		return this.jdbc.sql("SELECT status FROM idempotency_records WHERE idempotency_key = ?")
			.param(key)
			.query(String.class)
			.single();
	}

	private String paymentStatus(Payment payment) {
		return this.jdbc.sql("SELECT status FROM payments WHERE order_id = ?")
			.param(payment.orderId())
			.query(String.class)
			.single();
	}

	private long paymentRows(Payment payment) {
		return this.jdbc.sql("SELECT count(*) FROM payments WHERE order_id = ?")
			.param(payment.orderId())
			.query(Long.class)
			.single();
	}

	private long ledgerRows(Payment payment) {
		return this.jdbc.sql("""
				SELECT count(*) FROM simulated_provider_charges c JOIN payments p
				  ON c.provider_idempotency_key = 'payonce-payment-' || p.id
				WHERE p.order_id = ?""").param(payment.orderId()).query(Long.class).single();
	}

	private String ledgerReference(Payment payment) {
		return this.jdbc.sql("""
				SELECT c.provider_reference FROM simulated_provider_charges c JOIN payments p
				  ON c.provider_idempotency_key = 'payonce-payment-' || p.id
				WHERE p.order_id = ?""").param(payment.orderId()).query(String.class).single();
	}

	/** One payment of this run: a unique key and order id, and its body. */
	private final class Payment {

		private final String name;

		private final long amount;

		Payment(String name, long amount) {
			this.name = name;
			this.amount = amount;
		}

		String key() {
			return "crash-" + this.name + "-" + CrashRecoveryIntegrationTests.this.run;
		}

		String orderId() {
			return "order-" + this.name + "-" + CrashRecoveryIntegrationTests.this.run;
		}

		String body() {
			return PaymentsApi.paymentBody(orderId(), this.amount, "ILS");
		}

	}

}
