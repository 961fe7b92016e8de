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
 * docs/design.md sections 4 and 15: a void the provider made but whose answer was lost
 * (the simulator times out after every second provider call acts: the authorization is
 * call 1, the void call 2) keeps its hold on the payment, so no capture is claimed
 * meanwhile; nobody retries, and the reconciler's lookup finds the provider's void and
 * settles it: the payment is VOIDED, the stored answer is replayed, and the provider
 * voided once. The context is {@link CaptureReconciliationIntegrationTests}'s (the plain
 * one with an {@link OffsetClock}); the faults are set per test, counting from its first
 * call.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import({ TestcontainersConfiguration.class, OffsetClock.Installed.class })
class VoidReconciliationIntegrationTests {

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

	private long providerCaptures(String paymentId) {
		return this.jdbc.sql("""
				SELECT count(*) FROM simulated_provider_captures c
				    JOIN payments p ON c.charge_reference = p.provider_reference WHERE p.id = CAST(? AS uuid)""")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

}
