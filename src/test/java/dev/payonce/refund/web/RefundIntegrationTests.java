package dev.payonce.refund.web;

import java.net.http.HttpRequest;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestCredentials;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md section 8: refunds over real HTTP on real PostgreSQL. A refund is stored
 * and replayed like a payment; the receipt shows what was refunded; each refusal has its
 * own problem type and stores nothing; a declined refund gives its reservation back; the
 * same key on another route is a key reuse.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class RefundIntegrationTests {

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
	void refundsAPaymentAndReplaysTheRefundByteForByte() {
		String paymentId = pay(1000, "pm_card_visa");
		String key = "refund-" + UUID.randomUUID();

		Reply refund = this.api.refund(paymentId, key, "{\"amount\":300,\"reason\":\"requested_by_customer\"}");
		Reply replay = this.api.refund(paymentId, key, "{\"reason\":\"requested_by_customer\",\"amount\":300}");

		assertThat(refund.status()).isEqualTo(201);
		String refundId = refund.field("id");
		assertThat(refund.header("Location")).contains("/payments/" + paymentId + "/refunds/" + refundId);
		assertThat(refund.field("paymentId")).isEqualTo(paymentId);
		assertThat(refund.json().get("amount").longValue()).isEqualTo(300);
		assertThat(refund.field("currency")).isEqualTo("ILS");
		assertThat(refund.field("reason")).isEqualTo("requested_by_customer");
		assertThat(refund.field("status")).isEqualTo("SUCCEEDED");
		assertThat(refund.field("providerReference")).startsWith("sim_re_");
		assertThat(refund.header("Idempotent-Replayed")).isEmpty();
		assertThat(replay.status()).isEqualTo(201);
		assertThat(replay.body()).isEqualTo(refund.body());
		assertThat(replay.header("Idempotent-Replayed")).contains("true");
		assertThat(this.api.get("/payments/" + paymentId).json().get("refundedAmount").longValue()).isEqualTo(300);
		assertThat(this.api.get("/payments/" + paymentId + "/refunds").json().get("data").get(0).get("id").asString())
			.isEqualTo(refundId);
		assertThat(this.api.get("/payments/" + paymentId + "/refunds/" + refundId).body()).isEqualTo(refund.body());
		assertThat(ledgerRefunds(refundId)).isEqualTo(1);
	}

	@Test
	void omittedAmountRefundsAllThatRemainsAndThenNothingIsLeft() {
		String paymentId = pay(1000, "pm_card_visa");
		this.api.refund(paymentId, "part-" + UUID.randomUUID(), "{\"amount\":400}");

		Reply rest = this.api.refund(paymentId, "rest-" + UUID.randomUUID(), "{}");
		Reply more = this.api.refund(paymentId, "more-" + UUID.randomUUID(), "{\"amount\":1}");

		assertThat(rest.status()).isEqualTo(201);
		assertThat(rest.json().get("amount").longValue()).isEqualTo(600);
		assertThat(more.status()).isEqualTo(409);
		assertThat(more.problemType()).endsWith("/refund-exceeds-refundable");
		assertThat(more.json().get("refundableAmount").longValue()).isZero();
		assertThat(this.api.get("/payments/" + paymentId).json().get("refundedAmount").longValue()).isEqualTo(1000);
	}

	@Test
	void refusesEachImpossibleRefundWithItsOwnProblemAndStoresNothing() {
		String paymentId = pay(1000, "pm_card_visa");
		String declinedPayment = declinedPayment();
		String otherClientsKey = newClientKey();
		String key = "refused-" + UUID.randomUUID();

		Reply tooMuch = this.api.refund(paymentId, key, "{\"amount\":1001}");
		Reply notSucceeded = this.api.refund(declinedPayment, key, "{\"amount\":1}");
		String unknownId = UUID.randomUUID().toString();
		Reply unknown = this.api.refund(unknownId, key, "{\"amount\":1}");
		Reply othersPayment = this.api.as(otherClientsKey).refund(paymentId, key, "{\"amount\":1}");
		Reply corrected = this.api.refund(paymentId, key, "{\"amount\":1000}");

		assertThat(tooMuch.status()).isEqualTo(409);
		assertThat(tooMuch.problemType()).endsWith("/refund-exceeds-refundable");
		assertThat(tooMuch.json().get("refundableAmount").longValue()).isEqualTo(1000);
		assertThat(notSucceeded.status()).isEqualTo(409);
		assertThat(notSucceeded.problemType()).endsWith("/payment-not-refundable");
		assertThat(notSucceeded.field("detail")).startsWith("Only captured money can be refunded")
			.endsWith("this one is DECLINED.");
		assertThat(unknown.status()).isEqualTo(404);
		assertThat(unknown.problemType()).endsWith("/payment-not-found");
		assertThat(othersPayment.status()).isEqualTo(404);
		// The same answer but for the payment id and this request's own Request-Id.
		assertThat(othersPayment.body()).isEqualTo(unknown.body()
			.replace(unknownId, paymentId)
			.replace(unknown.field("requestId"), othersPayment.field("requestId")));
		assertThat(corrected.status()).isEqualTo(201);
		assertThat(count("SELECT count(*) FROM refunds WHERE payment_id = CAST(? AS uuid)", paymentId)).isEqualTo(1);
	}

	@Test
	void rejectsBadBodiesBeforeTheClaim() {
		String paymentId = pay(1000, "pm_card_visa");
		String key = "bad-" + UUID.randomUUID();

		Reply fraction = this.api.refund(paymentId, key, "{\"amount\":12.5}");
		Reply text = this.api.refund(paymentId, key, "{\"amount\":\"300\"}");
		Reply zero = this.api.refund(paymentId, key, "{\"amount\":0}");
		Reply reason = this.api.refund(paymentId, key, "{\"reason\":\"changed_my_mind\"}");
		Reply unknownField = this.api.refund(paymentId, key, "{\"amount\":1,\"currency\":\"ILS\"}");
		Reply duplicate = this.api.refund(paymentId, key, "{\"amount\":1,\"amount\":2}");
		Reply missingKey = this.api.send(this.api.request("/payments/" + paymentId + "/refunds")
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{}")));
		Reply malformedId = this.api.refund("not-a-payment", key, "{}");
		Reply noBody = this.api.send(this.api.request("/payments/" + paymentId + "/refunds")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.noBody()));

		for (Reply bad : new Reply[] { fraction, text, zero, reason, unknownField, duplicate }) {
			assertThat(bad.status()).isEqualTo(400);
			assertThat(bad.problemType()).endsWith("/invalid-request");
		}
		assertThat(missingKey.status()).isEqualTo(400);
		assertThat(missingKey.problemType()).endsWith("/idempotency-key-missing");
		assertThat(malformedId.status()).isEqualTo(404);
		assertThat(noBody.status()).isEqualTo(201);
		assertThat(noBody.json().get("amount").longValue()).isEqualTo(1000);
	}

	/**
	 * An empty body refunds all that remains only when no body was declared: a request
	 * that names a Content-Type and arrives empty (a client whose serializer dropped the
	 * body) is refused before the claim, and nothing is refunded or stored.
	 */
	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "application/json", "application/json; charset=utf-8", "text/plain" })
	void refusesAnEmptyBodyThatDeclaresAContentTypeAndRefundsNothing(String contentType) {
		String paymentId = pay(1000, "pm_card_visa");
		String key = "empty-" + UUID.randomUUID();

		Reply refused = this.api.send(this.api.request("/payments/" + paymentId + "/refunds")
			.header("Idempotency-Key", key)
			.header("Content-Type", contentType)
			.POST(HttpRequest.BodyPublishers.noBody()));

		assertThat(refused.status()).isEqualTo(400);
		assertThat(refused.problemType()).endsWith("/invalid-request");
		assertThat(refused.json().get("errors").get(0).get("message").asString()).contains("empty body");
		assertThat(count("SELECT count(*) FROM refunds WHERE payment_id = CAST(? AS uuid)", paymentId)).isZero();
		assertThat(count("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?", key)).isZero();
	}

	/**
	 * A multipart body must never be read as an empty body (which refunds everything):
	 * Payonce has no multipart endpoint, so every write answers 415 and stores nothing,
	 * with or without a boundary.
	 */
	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "multipart/form-data; boundary=x", "multipart/mixed; boundary=x", "multipart/form-data",
			"multipart/mixed" })
	void refusesMultipartBodiesOnEveryWriteAsUnsupportedMediaType(String contentType) {
		String paymentId = pay(1000, "pm_card_visa");
		String key = "multipart-" + UUID.randomUUID();
		PaymentsApi admin = this.api.as(TestCredentials.ADMIN_TOKEN);

		Reply refund = this.api.send(this.api.request("/payments/" + paymentId + "/refunds")
			.header("Idempotency-Key", key)
			.header("Content-Type", contentType)
			.POST(HttpRequest.BodyPublishers.ofString("{\"amount\": 1}")));
		Reply formRefund = this.api.send(this.api.request("/payments/" + paymentId + "/refunds")
			.header("Idempotency-Key", key)
			.header("Content-Type", contentType)
			.POST(HttpRequest.BodyPublishers
				.ofString("--x\r\nContent-Disposition: form-data; name=\"amount\"\r\n\r\n1\r\n--x--\r\n")));
		Reply payment = this.api.send(this.api.request("/payments")
			.header("Idempotency-Key", key)
			.header("Content-Type", contentType)
			.POST(HttpRequest.BodyPublishers.ofString(PaymentsApi.paymentBody("order-" + key, 100, "ILS"))));
		Reply client = admin.send(admin.request("/admin/clients")
			.header("Content-Type", contentType)
			.POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"multipart\"}")));
		Reply rotation = admin.send(admin.request("/admin/clients/cli_unknown/api-keys")
			.header("Content-Type", contentType)
			.POST(HttpRequest.BodyPublishers.ofString("{\"mode\":\"test\"}")));

		for (Reply refused : new Reply[] { refund, formRefund, payment, client, rotation }) {
			assertThat(refused.status()).isEqualTo(415);
			assertThat(refused.problemType()).endsWith("/unsupported-media-type");
		}
		assertThat(count("SELECT count(*) FROM refunds WHERE payment_id = CAST(? AS uuid)", paymentId)).isZero();
		assertThat(count("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?", key)).isZero();
		assertThat(count("SELECT count(*) FROM clients WHERE name = ?", "multipart")).isZero();
	}

	/**
	 * A multipart Content-Type without a boundary on a request without a body is no error
	 * of the server: each route gives its normal answer.
	 */
	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "multipart/form-data", "multipart/mixed" })
	void answersBodilessRequestsWithMalformedMultipartTypeNormally(String contentType) {
		PaymentsApi admin = this.api.as(TestCredentials.ADMIN_TOKEN);

		Reply payment = this.api
			.send(this.api.request("/payments/" + UUID.randomUUID()).header("Content-Type", contentType).GET());
		Reply clients = admin.send(admin.request("/admin/clients").header("Content-Type", contentType).GET());
		Reply unknown = this.api.send(this.api.request("/no-such-path").header("Content-Type", contentType).GET());

		assertThat(payment.status()).isEqualTo(404);
		assertThat(payment.problemType()).endsWith("/payment-not-found");
		assertThat(clients.status()).isEqualTo(200);
		assertThat(unknown.status()).isEqualTo(404);
		assertThat(unknown.problemType()).endsWith("/not-found");
	}

	/**
	 * A JSON null is not an omitted member: {@code "amount": null} must never become
	 * "refund all that remains".
	 */
	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "{\"amount\":null}", "{\"reason\":null}", "{\"amount\":null,\"reason\":\"duplicate\"}" })
	void rejectsJsonNullMembersNamingThemAndRefundsNothing(String body) {
		String paymentId = pay(1000, "pm_card_visa");
		String field = body.contains("\"amount\":null") ? "amount" : "reason";

		Reply refused = this.api.refund(paymentId, "null-" + UUID.randomUUID(), body);

		assertThat(refused.status()).isEqualTo(400);
		assertThat(refused.problemType()).endsWith("/invalid-request");
		assertThat(refused.json().get("errors").get(0).get("field").asString()).isEqualTo(field);
		assertThat(count("SELECT count(*) FROM refunds WHERE payment_id = CAST(? AS uuid)", paymentId)).isZero();
	}

	@Test
	void declinedRefundGivesItsReservationBackAndIsReplayed() {
		String paymentId = pay(800, "pm_card_refundFail");
		String key = "declined-" + UUID.randomUUID();

		Reply declined = this.api.refund(paymentId, key, "{\"amount\":800}");
		Reply replay = this.api.refund(paymentId, key, "{\"amount\":800}");
		Reply again = this.api.refund(paymentId, "again-" + UUID.randomUUID(), "{\"amount\":800}");

		assertThat(declined.status()).isEqualTo(402);
		assertThat(declined.problemType()).endsWith("/refund-declined");
		assertThat(declined.field("declineCode")).isEqualTo("refund_failed");
		assertThat(replay.body()).isEqualTo(declined.body());
		assertThat(replay.header("Idempotent-Replayed")).contains("true");
		assertThat(again.status()).as("the declined refund's reservation was given back").isEqualTo(402);
		assertThat(
				count("SELECT refunds_in_flight + refunded_amount FROM payments WHERE id = CAST(? AS uuid)", paymentId))
			.isZero();
	}

	@Test
	void sameKeyOnAnotherRouteIsKeyReused() {
		String paymentId = pay(500, "pm_card_visa");
		String key = "route-" + UUID.randomUUID();
		this.api.refund(paymentId, key, "{\"amount\":100}");

		Reply asPayment = this.api.pay(key, PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 100, "ILS"));
		Reply paymentKeyAsRefund = this.api.refund(paymentId, key + "-payment", "{\"amount\":100}");
		this.api.pay(key + "-pay", PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 100, "ILS"));
		Reply refundWithPaymentsKey = this.api.refund(paymentId, key + "-pay", "{\"amount\":100}");

		assertThat(asPayment.status()).isEqualTo(422);
		assertThat(asPayment.problemType()).endsWith("/idempotency-key-reused");
		assertThat(paymentKeyAsRefund.status()).isEqualTo(201);
		assertThat(refundWithPaymentsKey.status()).isEqualTo(422);
		assertThat(refundWithPaymentsKey.problemType()).endsWith("/idempotency-key-reused");
	}

	private String pay(long amount, String paymentMethod) {
		Reply paid = this.api.pay("pay-" + UUID.randomUUID(),
				"{\"orderId\":\"order-%s\",\"amount\":%d,\"currency\":\"ILS\",\"paymentMethod\":\"%s\"}"
					.formatted(UUID.randomUUID(), amount, paymentMethod));
		assertThat(paid.status()).isEqualTo(201);
		return paid.field("id");
	}

	private String declinedPayment() {
		Reply declined = this.api.pay("pay-" + UUID.randomUUID(),
				"{\"orderId\":\"order-%s\",\"amount\":500,\"currency\":\"ILS\",\"paymentMethod\":\"pm_card_chargeDeclined\"}"
					.formatted(UUID.randomUUID()));
		assertThat(declined.status()).isEqualTo(402);
		return declined.field("paymentId");
	}

	private String newClientKey() {
		PaymentsApi admin = this.api.as(TestCredentials.ADMIN_TOKEN);
		Reply created = admin.send(admin.request("/admin/clients")
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"refund-other\"}")));
		assertThat(created.status()).isEqualTo(201);
		return created.field("apiKey");
	}

	private long ledgerRefunds(String refundId) {
		return count("SELECT count(*) FROM simulated_provider_refunds WHERE provider_idempotency_key = ?",
				"payonce-refund-" + refundId);
	}

	private long count(String sql, String value) {
		return this.jdbc.sql(sql).param(value).query(Long.class).single();
	}

}
