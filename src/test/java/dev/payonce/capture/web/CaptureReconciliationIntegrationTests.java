package dev.payonce.capture.web;

import java.time.Duration;
import java.util.UUID;

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

import dev.payonce.OffsetClock;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.gateway.simulator.SimulatorSettings;
import dev.payonce.idempotency.IdempotencyReconciler;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md sections 4 and 15: a capture the provider made but whose answer was lost
 * (the simulator times out after every second provider call acts) keeps its reservation;
 * a retry with the same key returns the original capture, never a second one, and one
 * nobody retried is settled by the reconciler's lookup once the clock has moved past the
 * default give-up window (15 minutes). A void whose answer was lost keeps its hold on the
 * payment, so no capture is claimed meanwhile, until the reconciler's lookup finds the
 * provider's void: the payment is VOIDED and the stored answer replayed. The faults are
 * set on the running simulator, so that this class shares its context with
 * {@code RefundReconciliationIntegrationTests}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import({ TestcontainersConfiguration.class, OffsetClock.Installed.class })
class CaptureReconciliationIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	OffsetClock clock;

	@Autowired
	IdempotencyReconciler reconciler;

	@Autowired
	ApplicationContext context;

	@BeforeEach
	void simulatorSettings() {
		SimulatorSettings.of(this.context).faults(0, 0, 2);
	}

	@AfterEach
	void resetSimulator() {
		SimulatorSettings.of(this.context).reset();
	}

	@Test
	void aLostCaptureAnswerIsResolvedByTheRetryOrByReconciliation() {
		CapturesApi api = new CapturesApi(new PaymentsApi(this.port));
		String paymentId = api.authorize(1000);
		String retried = "retried-" + UUID.randomUUID();
		String abandoned = "abandoned-" + UUID.randomUUID();

		Reply lost = api.capture(paymentId, retried, "{\"amount\":300}");
		long reservedWhileUnknown = column(paymentId, "captures_in_flight");
		Reply retry = api.capture(paymentId, retried, "{\"amount\":300}");
		Reply lostAgain = api.capture(paymentId, abandoned, "{\"amount\":200}");
		this.clock.advance(Duration.ofMinutes(16), this.jdbc);
		IdempotencyReconciler.Report report = this.reconciler.reconcile();
		Reply replay = api.capture(paymentId, abandoned, "{\"amount\":200}");

		assertThat(lost.status()).isEqualTo(503);
		assertThat(lost.problemType()).endsWith("/capture-outcome-unknown");
		assertThat(reservedWhileUnknown).isEqualTo(300);
		assertThat(retry.status()).isEqualTo(201);
		assertThat(retry.field("id")).isEqualTo(lost.field("captureId"));
		assertThat(lostAgain.status()).isEqualTo(503);
		assertThat(report.found()).isGreaterThanOrEqualTo(1);
		assertThat(replay.status()).isEqualTo(201);
		assertThat(replay.header("Idempotent-Replayed")).contains("true");
		assertThat(replay.field("id")).isEqualTo(lostAgain.field("captureId"));
		assertThat(column(paymentId, "captured_amount")).isEqualTo(500);
		assertThat(column(paymentId, "captures_in_flight")).isZero();
		assertThat(providerCaptures(paymentId)).as("one provider capture per key").isEqualTo(2);
	}

	private long column(String paymentId, String column) {
		return this.jdbc.sql("SELECT " + column + " FROM payments WHERE id = CAST(? AS uuid)")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

	@Test
	void aVoidWhoseAnswerWasLostIsSettledByTheReconcilersLookup() {
		CapturesApi api = new CapturesApi(new PaymentsApi(this.port));
		String paymentId = api.authorize(1000);
		String key = "lost-void-" + UUID.randomUUID();

		Reply lost = api.voidPayment(paymentId, key);
		boolean heldWhileUnknown = voidInFlight(paymentId);
		Reply captureMeanwhile = api.capture(paymentId, "meanwhile-" + UUID.randomUUID(), "{\"amount\":100}");
		this.clock.advance(Duration.ofMinutes(16), this.jdbc);
		IdempotencyReconciler.Report report = this.reconciler.reconcile();
		Reply replay = api.voidPayment(paymentId, key);

		assertThat(lost.status()).isEqualTo(503);
		assertThat(lost.problemType()).endsWith("/void-outcome-unknown");
		assertThat(heldWhileUnknown).isTrue();
		assertThat(captureMeanwhile.status()).isEqualTo(409);
		assertThat(captureMeanwhile.problemType()).endsWith("/payment-not-capturable");
		assertThat(report.found()).isGreaterThanOrEqualTo(1);
		assertThat(replay.status()).isEqualTo(200);
		assertThat(replay.header("Idempotent-Replayed")).contains("true");
		assertThat(replay.field("id")).isEqualTo(lost.field("voidId"));
		assertThat(replay.field("status")).isEqualTo("SUCCEEDED");
		assertThat(replay.field("providerReference")).isEqualTo(providerVoid(paymentId));
		assertThat(api.get("/payments/" + paymentId).field("status")).isEqualTo("VOIDED");
		assertThat(voidInFlight(paymentId)).isFalse();
		assertThat(providerCaptures(paymentId)).isZero();
	}

	private boolean voidInFlight(String paymentId) {
		return this.jdbc.sql("SELECT void_in_flight FROM payments WHERE id = CAST(? AS uuid)")
			.param(paymentId)
			.query(Boolean.class)
			.single();
	}

	/** The provider's one void of the payment's charge (fails if there are more). */
	private String providerVoid(String paymentId) {
		return this.jdbc.sql("""
				SELECT v.provider_reference FROM simulated_provider_voids v
				    JOIN payments p ON v.charge_reference = p.provider_reference
				WHERE p.id = CAST(? AS uuid) AND v.outcome = 'SUCCEEDED'""")
			.param(paymentId)
			.query(String.class)
			.single();
	}

	/** The provider's captures of the payment's charge. */
	private long providerCaptures(String paymentId) {
		return this.jdbc.sql("""
				SELECT count(*) FROM simulated_provider_captures c
				    JOIN payments p ON c.charge_reference = p.provider_reference WHERE p.id = CAST(? AS uuid)""")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

}
