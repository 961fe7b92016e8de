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
 * default give-up window (15 minutes). The faults are set on the running simulator, so
 * that this class shares its context with {@code RefundReconciliationIntegrationTests}.
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
		assertThat(this.jdbc.sql("""
				SELECT count(*) FROM simulated_provider_captures c JOIN payments p
				    ON c.charge_reference = p.provider_reference WHERE p.id = CAST(? AS uuid)""")
			.param(paymentId)
			.query(Long.class)
			.single()).as("one provider capture per key").isEqualTo(2);
	}

	private long column(String paymentId, String column) {
		return this.jdbc.sql("SELECT " + column + " FROM payments WHERE id = CAST(? AS uuid)")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

}
