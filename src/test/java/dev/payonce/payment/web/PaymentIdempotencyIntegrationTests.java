package dev.payonce.payment.web;

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
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md section 6: same key and same body charge once and replay byte for byte;
 * a different body is refused; a decline is stored and replayed. Real HTTP, real
 * PostgreSQL.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class PaymentIdempotencyIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	PaymentsApi api;

	@BeforeEach
	void setUp() {
		this.api = new PaymentsApi(this.port);
	}

	@Test
	void createsPaymentWithReceiptAndLocation() {
		String orderId = "order-" + UUID.randomUUID();

		Reply reply = this.api.pay(newKey(), PaymentsApi.paymentBody(orderId, 1200, "ILS"));

		assertThat(reply.status()).isEqualTo(201);
		String id = reply.field("id");
		assertThat(reply.header("Location")).contains("/payments/" + id);
		assertThat(reply.header("Idempotent-Replayed")).isEmpty();
		assertThat(reply.field("orderId")).isEqualTo(orderId);
		assertThat(reply.json().get("amount").isIntegralNumber()).isTrue();
		assertThat(reply.json().get("amount").longValue()).isEqualTo(1200);
		assertThat(reply.field("currency")).isEqualTo("ILS");
		assertThat(reply.field("status")).isEqualTo("SUCCEEDED");
		assertThat(reply.field("providerReference")).startsWith("sim_ch_");
		assertThat(reply.field("createdAt")).endsWith("Z");
		assertThat(this.api.get("/payments/" + id).body()).isEqualTo(reply.body());
		assertThat(chargesFor(id)).isEqualTo(1);
	}

	@Test
	void replaysCompletedResponseByteForByteWithReplayedHeader() {
		String key = newKey();
		String orderId = "order-" + UUID.randomUUID();
		String body = PaymentsApi.paymentBody(orderId, 4999, "USD");
		Reply first = this.api.pay(key, body);

		Reply second = this.api.pay(key, body);
		Reply third = this.api.pay(key, body);

		assertThat(first.status()).isEqualTo(201);
		for (Reply replay : new Reply[] { second, third }) {
			assertThat(replay.status()).isEqualTo(201);
			assertThat(replay.body()).isEqualTo(first.body());
			assertThat(replay.header("Location")).isEqualTo(first.header("Location"));
			assertThat(replay.header("Content-Type")).isEqualTo(first.header("Content-Type"));
			assertThat(replay.header("Idempotent-Replayed")).contains("true");
		}
		assertThat(chargesFor(first.field("id"))).isEqualTo(1);
		assertThat(paymentsForOrder(orderId)).isEqualTo(1);
	}

	@Test
	void replaysWhenTheSameRequestIsSpelledDifferently() {
		String key = newKey();
		String orderId = "order-" + UUID.randomUUID();
		Reply first = this.api.pay(key, """
				{"orderId":"%s","amount":1200,"currency":"ILS","paymentMethod":"pm_card_visa"}""".formatted(orderId));

		Reply reordered = this.api.pay(key, """
				{ "currency" : "ils",
				  "amount" : 1200,
				  "orderId" : "%s" }""".formatted(orderId));
		Reply quotedKey = this.api.pay("\"" + key + "\"", PaymentsApi.paymentBody(orderId, 1200, "Ils"));

		assertThat(first.status()).isEqualTo(201);
		assertThat(reordered.status()).isEqualTo(201);
		assertThat(reordered.body()).isEqualTo(first.body());
		assertThat(reordered.header("Idempotent-Replayed")).contains("true");
		assertThat(quotedKey.status()).isEqualTo(201);
		assertThat(quotedKey.body()).isEqualTo(first.body());
		assertThat(chargesFor(first.field("id"))).isEqualTo(1);
	}

	@Test
	void refusesDifferentRequestWithSameKeyAndChargesNothing() {
		String key = newKey();
		String orderId = "order-" + UUID.randomUUID();
		Reply first = this.api.pay(key, PaymentsApi.paymentBody(orderId, 1200, "ILS"));
		long ledgerBefore = ledgerRows();

		Reply otherAmount = this.api.pay(key, PaymentsApi.paymentBody(orderId, 1201, "ILS"));
		Reply otherCurrency = this.api.pay(key, PaymentsApi.paymentBody(orderId, 1200, "USD"));
		Reply otherOrder = this.api.pay(key, PaymentsApi.paymentBody(orderId + "-2", 1200, "ILS"));
		Reply otherMethod = this.api.pay(key, """
				{"orderId":"%s","amount":1200,"currency":"ILS","paymentMethod":"pm_card_mastercard"}"""
			.formatted(orderId));

		assertThat(first.status()).isEqualTo(201);
		for (Reply reused : new Reply[] { otherAmount, otherCurrency, otherOrder, otherMethod }) {
			assertThat(reused.status()).isEqualTo(422);
			assertThat(reused.problemType()).endsWith("/idempotency-key-reused");
			assertThat(reused.header("Content-Type")).contains("application/problem+json");
			assertThat(reused.body()).doesNotContain(first.field("id"));
		}
		assertThat(ledgerRows()).isEqualTo(ledgerBefore);
		assertThat(paymentsForOrder(orderId)).isEqualTo(1);
		assertThat(paymentsForOrder(orderId + "-2")).isZero();
		assertThat(this.api.pay(key, PaymentsApi.paymentBody(orderId, 1200, "ILS")).body()).isEqualTo(first.body());
	}

	@Test
	void storesAndReplaysDeclineAs402() {
		String key = newKey();
		String body = """
				{"orderId":"order-%s","amount":777,"currency":"EUR","paymentMethod":"pm_card_chargeDeclined"}"""
			.formatted(UUID.randomUUID());

		Reply declined = this.api.pay(key, body);
		Reply replay = this.api.pay(key, body);

		assertThat(declined.status()).isEqualTo(402);
		assertThat(declined.problemType()).endsWith("/payment-declined");
		assertThat(declined.header("Content-Type")).contains("application/problem+json");
		assertThat(declined.field("declineCode")).isEqualTo("card_declined");
		String paymentId = declined.field("paymentId");
		assertThat(replay.status()).isEqualTo(402);
		assertThat(replay.body()).isEqualTo(declined.body());
		assertThat(replay.header("Idempotent-Replayed")).contains("true");
		assertThat(this.api.get("/payments/" + paymentId).field("status")).isEqualTo("DECLINED");
		assertThat(chargesFor(paymentId)).isEqualTo(1);
	}

	@Test
	void answersUnknownPaymentWith404Problem() {
		Reply unknown = this.api.get("/payments/" + UUID.randomUUID());
		Reply malformed = this.api.get("/payments/not-a-uuid");

		assertThat(unknown.status()).isEqualTo(404);
		assertThat(unknown.problemType()).endsWith("/payment-not-found");
		assertThat(malformed.status()).isEqualTo(404);
		assertThat(malformed.problemType()).endsWith("/payment-not-found");
	}

	@Test
	void ignoresClientSentReplayedHeaderOnFirstRequest() {
		Reply reply = this.api.send(this.api.request("/payments")
			.header("Idempotency-Key", newKey())
			.header("Content-Type", "application/json")
			.header("Idempotent-Replayed", "true")
			.POST(java.net.http.HttpRequest.BodyPublishers.ofString(PaymentsApi.paymentBody("order-1", 100, "ILS"))));

		assertThat(reply.status()).isEqualTo(201);
		assertThat(reply.header("Idempotent-Replayed")).isEmpty();
	}

	static String newKey() {
		return "key-" + UUID.randomUUID();
	}

	private long chargesFor(String paymentId) {
		return this.jdbc.sql("SELECT count(*) FROM simulated_provider_charges WHERE provider_idempotency_key = ?")
			.param("payonce-payment-" + paymentId)
			.query(Long.class)
			.single();
	}

	private long paymentsForOrder(String orderId) {
		return this.jdbc.sql("SELECT count(*) FROM payments WHERE order_id = ?")
			.param(orderId)
			.query(Long.class)
			.single();
	}

	private long ledgerRows() {
		return this.jdbc.sql("SELECT count(*) FROM simulated_provider_charges").query(Long.class).single();
	}

}
