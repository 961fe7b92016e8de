package dev.payonce.payment.web;

import java.time.Duration;
import java.time.Instant;
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

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.gateway.simulator.SimulatorSettings;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md section 15: {@code "capture": "manual"} authorizes without capturing,
 * and a payment without it is answered as it always was. The simulated provider's
 * authorizations hold 3 days here, not its default 7, so that the expiry shown is the
 * provider's.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class ManualPaymentIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	ApplicationContext context;

	PaymentsApi api;

	@BeforeEach
	void setUp() {
		SimulatorSettings.of(this.context).authorizationWindow(Duration.ofDays(3));
		this.api = new PaymentsApi(this.port);
	}

	@AfterEach
	void resetSimulator() {
		SimulatorSettings.of(this.context).reset();
	}

	@Test
	void authorizesAManualPaymentWithoutCapturingIt() {
		String key = "manual-" + UUID.randomUUID();
		String body = "{\"orderId\":\"order-1\",\"amount\":1200,\"currency\":\"ILS\",\"capture\":\"manual\"}";

		Reply created = this.api.pay(key, body);
		Reply replayed = this.api.pay(key, body);

		assertThat(created.status()).isEqualTo(201);
		assertThat(created.field("status")).isEqualTo("AUTHORIZED");
		assertThat(created.field("capture")).isEqualTo("manual");
		assertThat(created.json().path("capturableAmount").asLong()).isEqualTo(1200);
		assertThat(created.json().path("capturedAmount").asLong()).isZero();
		Instant createdAt = Instant.parse(created.field("createdAt"));
		assertThat(Instant.parse(created.field("authorizationExpiresAt")))
			.isEqualTo(createdAt.plus(Duration.ofDays(3)));
		assertThat(replayed.body()).isEqualTo(created.body());
		assertThat(replayed.header("Idempotent-Replayed")).contains("true");
		assertThat(this.jdbc.sql("""
				SELECT c.capture_method FROM simulated_provider_charges c JOIN payments p
				    ON p.provider_reference = c.provider_reference WHERE p.id = CAST(? AS uuid)""")
			.param(created.field("id"))
			.query(String.class)
			.single()).isEqualTo("manual");
	}

	@Test
	void answersAnAutomaticPaymentWithoutAnyCaptureMember() {
		Reply omitted = this.api.pay("automatic-" + UUID.randomUUID(), PaymentsApi.paymentBody("order-2", 1200, "ILS"));
		Reply explicit = this.api.pay("automatic-" + UUID.randomUUID(),
				"{\"orderId\":\"order-3\",\"amount\":1200,\"currency\":\"ILS\",\"capture\":\"automatic\"}");

		for (Reply reply : new Reply[] { omitted, explicit }) {
			assertThat(reply.status()).isEqualTo(201);
			assertThat(reply.field("status")).isEqualTo("SUCCEEDED");
			assertThat(reply.json().has("capture")).isFalse();
			assertThat(reply.json().has("capturableAmount")).isFalse();
			assertThat(reply.json().has("capturedAmount")).isFalse();
			assertThat(reply.json().has("authorizationExpiresAt")).isFalse();
		}
	}

	@Test
	void replaysAnAutomaticKeyWhetherOrNotCaptureIsSpelledOut() {
		String key = "automatic-same-" + UUID.randomUUID();

		Reply first = this.api.pay(key, PaymentsApi.paymentBody("order-4", 1200, "ILS"));
		Reply second = this.api.pay(key,
				"{\"orderId\":\"order-4\",\"amount\":1200,\"currency\":\"ILS\",\"capture\":\"automatic\"}");
		Reply manual = this.api.pay(key,
				"{\"orderId\":\"order-4\",\"amount\":1200,\"currency\":\"ILS\",\"capture\":\"manual\"}");

		assertThat(second.body()).isEqualTo(first.body());
		assertThat(manual.status()).isEqualTo(422);
	}

	@Test
	void refusesAnUnknownCaptureMethod() {
		Reply reply = this.api.pay("capture-typo-" + UUID.randomUUID(),
				"{\"orderId\":\"order-5\",\"amount\":1200,\"currency\":\"ILS\",\"capture\":\"Manual\"}");

		assertThat(reply.status()).isEqualTo(400);
		assertThat(reply.problemType()).endsWith("/invalid-request");
		assertThat(reply.body()).contains("must be automatic or manual");
	}

}
