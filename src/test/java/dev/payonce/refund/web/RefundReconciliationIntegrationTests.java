package dev.payonce.refund.web;

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
 * docs/design.md section 8: an unknown refund outcome keeps its reservation until
 * reconciliation settles it, and a refund the provider never saw is given up after
 * {@code give-up-after}, which gives the amount back. The simulator fails every second
 * provider call before acting, so the payment (call 1) succeeds and its refund (call 2)
 * ends unknown with nothing refunded; the clock then moves past the give-up window.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import({ TestcontainersConfiguration.class, OffsetClock.Installed.class })
class RefundReconciliationIntegrationTests {

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
		SimulatorSettings.of(this.context).faults(0, 2, 0);
	}

	@AfterEach
	void resetSimulator() {
		SimulatorSettings.of(this.context).reset();
	}

	@Test
	void unknownRefundKeepsItsReservationUntilTheReconcilerGivesItUp() {
		PaymentsApi api = new PaymentsApi(this.port);
		Reply paid = api.pay("pay-" + UUID.randomUUID(),
				PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 900, "ILS"));
		String paymentId = paid.field("id");
		String key = "unknown-refund-" + UUID.randomUUID();

		Reply unknown = api.refund(paymentId, key, "{\"amount\":900}");
		long reservedWhileUnknown = inFlight(paymentId);
		Reply refusedMeanwhile = api.refund(paymentId, "meanwhile-" + UUID.randomUUID(), "{\"amount\":1}");
		this.clock.advance(Duration.ofMinutes(16), this.jdbc);
		IdempotencyReconciler.Report report = this.reconciler.reconcile();
		Reply replay = api.refund(paymentId, key, "{\"amount\":900}");
		Reply afterwards = api.refund(paymentId, "afterwards-" + UUID.randomUUID(), "{\"amount\":900}");

		assertThat(paid.status()).isEqualTo(201);
		assertThat(unknown.status()).isEqualTo(503);
		assertThat(unknown.problemType()).endsWith("/refund-outcome-unknown");
		assertThat(unknown.header("Retry-After")).isPresent();
		assertThat(reservedWhileUnknown).isEqualTo(900);
		assertThat(refusedMeanwhile.problemType()).endsWith("/refund-exceeds-refundable");
		assertThat(report.failed()).isGreaterThanOrEqualTo(1);
		assertThat(replay.status()).isEqualTo(402);
		assertThat(replay.problemType()).endsWith("/refund-failed");
		assertThat(replay.header("Idempotent-Replayed")).contains("true");
		assertThat(replay.field("refundId")).isEqualTo(unknown.field("refundId"));
		assertThat(afterwards.status()).as("the failed refund gave its reservation back").isEqualTo(201);
		assertThat(inFlight(paymentId)).isZero();
		assertThat(this.jdbc.sql("SELECT refunded_amount FROM payments WHERE id = CAST(? AS uuid)")
			.param(paymentId)
			.query(Long.class)
			.single()).isEqualTo(900);
	}

	private long inFlight(String paymentId) {
		return this.jdbc.sql("SELECT refunds_in_flight FROM payments WHERE id = CAST(? AS uuid)")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

}
