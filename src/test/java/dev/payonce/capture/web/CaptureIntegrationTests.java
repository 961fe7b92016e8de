package dev.payonce.capture.web;

import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md section 15: captures over real HTTP on real PostgreSQL: partial captures
 * up to the authorized amount, replays, refusals that store nothing, the reads.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class CaptureIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	PaymentsApi payments;

	CapturesApi api;

	@BeforeEach
	void setUp() {
		this.payments = new PaymentsApi(this.port);
		this.api = new CapturesApi(this.payments);
	}

	@Test
	void capturesInPartsUpToTheAuthorizedAmountThenTheRemainder() {
		String paymentId = this.api.authorize(1000);
		String key = "capture-" + UUID.randomUUID();

		Reply first = this.api.capture(paymentId, key, "{\"amount\":300}");
		Reply replayed = this.api.capture(paymentId, key, "{\"amount\":300}");
		Reply rest = this.api.captureAll(paymentId, "capture-rest-" + UUID.randomUUID());
		Reply more = this.api.capture(paymentId, "capture-more-" + UUID.randomUUID(), "{\"amount\":1}");

		assertThat(first.status()).isEqualTo(201);
		assertThat(first.field("status")).isEqualTo("SUCCEEDED");
		assertThat(first.json().path("amount").asLong()).isEqualTo(300);
		assertThat(first.header("Location")).contains("/payments/" + paymentId + "/captures/" + first.field("id"));
		assertThat(replayed.body()).isEqualTo(first.body());
		assertThat(replayed.header("Idempotent-Replayed")).contains("true");
		assertThat(rest.status()).isEqualTo(201);
		assertThat(rest.json().path("amount").asLong()).isEqualTo(700);
		assertThat(more.status()).isEqualTo(409);
		assertThat(more.problemType()).endsWith("/payment-not-capturable");
		Reply payment = this.payments.get("/payments/" + paymentId);
		assertThat(payment.field("status")).isEqualTo("SUCCEEDED");
		assertThat(payment.json().path("capturedAmount").asLong()).isEqualTo(1000);
		assertThat(payment.json().path("capturableAmount").asLong()).isZero();
		assertThat(ledger(paymentId)).isEqualTo(1000);
		assertThat(this.jdbc.sql("SELECT type FROM merchant_events WHERE resource_id = ?::uuid")
			.param(first.field("id"))
			.query(String.class)
			.list()).as("its merchant event").containsExactly("capture.succeeded");
	}

	@Test
	void refusesMoreThanIsLeftAndStoresNothing() {
		String paymentId = this.api.authorize(1000);
		this.api.capture(paymentId, "capture-" + UUID.randomUUID(), "{\"amount\":600}");
		String key = "capture-too-much-" + UUID.randomUUID();

		Reply tooMuch = this.api.capture(paymentId, key, "{\"amount\":500}");
		Reply fits = this.api.capture(paymentId, key, "{\"amount\":400}");

		assertThat(tooMuch.status()).isEqualTo(409);
		assertThat(tooMuch.problemType()).endsWith("/capture-exceeds-capturable");
		assertThat(tooMuch.json().path("capturableAmount").asLong()).isEqualTo(400);
		assertThat(fits.status()).isEqualTo(201);
		assertThat(ledger(paymentId)).isEqualTo(1000);
	}

	@Test
	void refusesAnAutomaticPaymentAndAnUnknownOne() {
		Reply paid = this.payments.pay("automatic-" + UUID.randomUUID(),
				PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 1000, "ILS"));

		Reply automatic = this.api.capture(paid.field("id"), "capture-" + UUID.randomUUID(), "{}");
		Reply unknown = this.api.capture(UUID.randomUUID().toString(), "capture-" + UUID.randomUUID(), "{}");

		assertThat(automatic.status()).isEqualTo(409);
		assertThat(automatic.problemType()).endsWith("/payment-not-capturable");
		assertThat(automatic.field("paymentStatus")).isEqualTo("SUCCEEDED");
		assertThat(unknown.status()).isEqualTo(404);
		assertThat(unknown.problemType()).endsWith("/payment-not-found");
	}

	@Test
	void refusesACaptureOnceTheAuthorizationLapsed() {
		String paymentId = this.api.authorize(1000);
		// The hold window has passed: the row says so, as it would a week later.
		this.jdbc.sql("UPDATE payments SET authorization_expires_at = now() - interval '1 second' WHERE id = ?")
			.param(UUID.fromString(paymentId))
			.update();

		Reply reply = this.api.capture(paymentId, "capture-" + UUID.randomUUID(), "{}");

		assertThat(reply.status()).isEqualTo(409);
		assertThat(reply.problemType()).endsWith("/authorization-expired");
		assertThat(ledger(paymentId)).isZero();
	}

	@Test
	void listsAndReadsAPaymentsCaptures() {
		String paymentId = this.api.authorize(1000);
		Reply first = this.api.capture(paymentId, "capture-" + UUID.randomUUID(), "{\"amount\":100}");
		Reply second = this.api.capture(paymentId, "capture-" + UUID.randomUUID(), "{\"amount\":200}");

		Reply list = this.api.get("/payments/" + paymentId + "/captures");
		Reply one = this.api.get("/payments/" + paymentId + "/captures/" + second.field("id"));
		Reply missing = this.api.get("/payments/" + paymentId + "/captures/" + UUID.randomUUID());

		assertThat(list.status()).isEqualTo(200);
		assertThat(list.json().size()).isEqualTo(2);
		assertThat(list.json().get(0).path("id").asString()).isEqualTo(first.field("id"));
		assertThat(list.json().get(1).path("id").asString()).isEqualTo(second.field("id"));
		assertThat(one.body()).isEqualTo(second.body());
		assertThat(missing.status()).isEqualTo(404);
		assertThat(missing.problemType()).endsWith("/capture-not-found");
	}

	@Test
	void refusesAPaymentsKeyOnTheCaptureRoute() {
		String key = "shared-" + UUID.randomUUID();
		Reply paid = this.payments.pay(key, "{\"orderId\":\"order-" + UUID.randomUUID()
				+ "\",\"amount\":1000,\"currency\":\"ILS\",\"capture\":\"manual\"}");

		Reply reply = this.api.capture(paid.field("id"), key, "{}");

		assertThat(reply.status()).isEqualTo(422);
		assertThat(reply.problemType()).endsWith("/idempotency-key-reused");
	}

	/** What the simulated provider captured of the payment's charge. */
	private long ledger(String paymentId) {
		return this.jdbc.sql("""
				SELECT COALESCE(sum(c.amount), 0) FROM simulated_provider_captures c
				    JOIN payments p ON c.charge_reference = p.provider_reference
				WHERE p.id = CAST(? AS uuid) AND c.outcome = 'SUCCEEDED'""")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

}
