package dev.payonce.payment.web;

import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
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

import dev.payonce.MeterReadings;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.gateway.simulator.SimulatorSettings;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md section 4, step 3: a provider that refuses or whose outcome is unknown
 * gets a 503 with {@code Retry-After} and {@code paymentId}, the payment stays PENDING,
 * and the client's retry with the same key resolves it without a second charge.
 *
 * <p>
 * The simulator's faults fire deterministically by charge call: every 2nd call charges
 * and then times out, every 4th call is refused before charging (refusal wins). The
 * faults are set before the test ({@link SimulatorSettings}, which counts calls from zero
 * again), so the one test below sees calls 1 to 5 in order.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class ProviderFaultIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	MeterRegistry meters;

	@Autowired
	ApplicationContext context;

	@BeforeEach
	void simulatorSettings() {
		SimulatorSettings.of(this.context).faults(4, 0, 2);
	}

	@AfterEach
	void resetSimulator() {
		SimulatorSettings.of(this.context).reset();
	}

	@Test
	void retryWithSameKeyResolvesUnknownAndRefusedChargesWithoutSecondCharge() {
		PaymentsApi api = new PaymentsApi(this.port);
		MeterReadings readings = new MeterReadings(this.meters);
		long unknownCalls = readings.providerCalls("charge", "unknown");
		long refusedCalls = readings.providerCalls("charge", "not_attempted");
		long approvedCalls = readings.providerCalls("charge", "approved");
		double takeovers = readings.claims("takeover");
		String unknownKey = "unknown-" + UUID.randomUUID();
		String refusedKey = "refused-" + UUID.randomUUID();
		String unknownBody = PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 3000, "ILS");
		String refusedBody = PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 4000, "ILS");

		Reply healthy = api.pay("healthy-" + UUID.randomUUID(),
				PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 1000, "ILS"));
		Reply unknown = api.pay(unknownKey, unknownBody);
		String unknownPaymentId = unknown.field("paymentId");
		String statusWhileUnknown = api.get("/payments/" + unknownPaymentId).field("status");
		long ledgerWhileUnknown = charges(unknownPaymentId);
		Reply unknownRetry = api.pay(unknownKey, unknownBody);
		Reply refused = api.pay(refusedKey, refusedBody);
		String refusedPaymentId = refused.field("paymentId");
		long ledgerWhileRefused = charges(refusedPaymentId);
		Reply refusedRetry = api.pay(refusedKey, refusedBody);

		assertThat(healthy.status()).isEqualTo(201);
		assertThat(unknown.status()).isEqualTo(503);
		assertThat(unknown.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(unknown.header("Retry-After")).contains("1");
		assertThat(statusWhileUnknown).isEqualTo("PENDING");
		assertThat(ledgerWhileUnknown).isEqualTo(1);
		assertThat(unknownRetry.status()).isEqualTo(201);
		assertThat(unknownRetry.field("id")).isEqualTo(unknownPaymentId);
		assertThat(unknownRetry.field("providerReference")).isEqualTo(reference(unknownPaymentId));
		assertThat(charges(unknownPaymentId)).isEqualTo(1);

		assertThat(refused.status()).isEqualTo(503);
		assertThat(refused.problemType()).endsWith("/payment-provider-unavailable");
		assertThat(refused.header("Retry-After")).isPresent();
		assertThat(ledgerWhileRefused).isZero();
		assertThat(refusedRetry.status()).isEqualTo(201);
		assertThat(refusedRetry.field("id")).isEqualTo(refusedPaymentId);
		assertThat(charges(refusedPaymentId)).isEqualTo(1);
		assertThat(api.pay(refusedKey, refusedBody).body()).isEqualTo(refusedRetry.body());
		assertThat(readings.providerCalls("charge", "unknown") - unknownCalls).isEqualTo(1);
		assertThat(readings.providerCalls("charge", "not_attempted") - refusedCalls).isEqualTo(1);
		assertThat(readings.providerCalls("charge", "approved") - approvedCalls).isEqualTo(3);
		assertThat(readings.claims("takeover") - takeovers).isEqualTo(2);
	}

	private long charges(String paymentId) {
		return this.jdbc.sql("SELECT count(*) FROM simulated_provider_charges WHERE provider_idempotency_key = ?")
			.param("payonce-payment-" + paymentId)
			.query(Long.class)
			.single();
	}

	private String reference(String paymentId) {
		return this.jdbc
			.sql("SELECT provider_reference FROM simulated_provider_charges WHERE provider_idempotency_key = ?")
			.param("payonce-payment-" + paymentId)
			.query(String.class)
			.single();
	}

}
