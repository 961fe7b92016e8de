package dev.payonce.payment.web;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.CountedStatements;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.CompletionWithoutRereadIntegrationTests.HeldGateway;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/events.md, "The outbox": the merchant event of a payment or refund is written by
 * the fenced completion that moves it, in the same statement or transaction: one event
 * per committed final status, none for an attempt the fence refused. Real HTTP, real
 * PostgreSQL; the simulated provider, held on a latch where a test needs two attempts in
 * flight at once.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "payonce.reconciliation.enabled=false", "payonce.idempotency.cleanup.enabled=false" })
// The context of CompletionWithoutRereadIntegrationTests.
@Import({ TestcontainersConfiguration.class, CountedStatements.class,
		CompletionWithoutRereadIntegrationTests.HeldCharges.class })
class PaymentEventsIntegrationTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	HeldGateway gateway;

	@Test
	void anApprovedAndADeclinedPaymentEachWriteOneEventCarryingTheirReceipt() {
		PaymentsApi api = new PaymentsApi(this.port);

		Reply approved = api.pay(PaymentIdempotencyIntegrationTests.newKey(),
				PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 1500, "ILS"));
		Reply declined = api.pay(PaymentIdempotencyIntegrationTests.newKey(), """
				{"orderId":"order-%s","amount":1600,"currency":"ILS","paymentMethod":"pm_card_chargeDeclined"}"""
			.formatted(UUID.randomUUID()));

		assertThat(approved.status()).isEqualTo(201);
		assertThat(declined.status()).isEqualTo(402);
		List<Map<String, Object>> approvedEvents = events(approved.field("id"));
		assertThat(approvedEvents).singleElement().satisfies((event) -> {
			assertThat(event).containsEntry("type", "payment.succeeded");
			assertThat(JSON.readTree((String) event.get("payload")))
				.isEqualTo(JSON.readTree(api.get("/payments/" + approved.field("id")).body()));
		});
		assertThat(events(declined.field("paymentId"))).singleElement()
			.satisfies((event) -> assertThat(event).containsEntry("type", "payment.declined"));
	}

	@Test
	void aReplayWritesNoSecondEventAndARefundWritesItsOwn() {
		PaymentsApi api = new PaymentsApi(this.port);
		String key = PaymentIdempotencyIntegrationTests.newKey();
		String body = PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 2000, "ILS");
		Reply paid = api.pay(key, body);

		Reply replayed = api.pay(key, body);
		Reply refund = api.refund(paid.field("id"), PaymentIdempotencyIntegrationTests.newKey(), "{\"amount\":700}");

		assertThat(replayed.header("Idempotent-Replayed")).contains("true");
		assertThat(events(paid.field("id"))).hasSize(1);
		assertThat(refund.status()).isEqualTo(201);
		assertThat(events(refund.field("id"))).singleElement().satisfies((event) -> {
			assertThat(event).containsEntry("type", "refund.succeeded");
			assertThat(event).containsEntry("client_id", clientOf(paid.field("id")));
			assertThat(JSON.readTree((String) event.get("payload")).path("amount").asLong()).isEqualTo(700);
		});
	}

	@Test
	void aStaleAttemptThatTheFenceRefusesWritesNoEvent() throws Exception {
		PaymentsApi api = new PaymentsApi(this.port);
		String orderId = "order-" + UUID.randomUUID();
		String key = PaymentIdempotencyIntegrationTests.newKey();
		String body = PaymentsApi.paymentBody(orderId, 1700, "ILS");
		CountDownLatch firstEntered = new CountDownLatch(1);
		CountDownLatch secondEntered = new CountDownLatch(1);
		CountDownLatch mayLeave = new CountDownLatch(1);
		this.gateway.hold(orderId, firstEntered, mayLeave);
		CompletableFuture<Reply> stale = CompletableFuture.supplyAsync(() -> api.pay(key, body));
		assertThat(firstEntered.await(30, TimeUnit.SECONDS)).isTrue();
		this.gateway.hold(orderId, secondEntered, mayLeave);
		// The first attempt's lease runs out while its charge is in flight: the retry
		// takes the record over (attempt 2) and charges under the same provider key.
		assertThat(this.jdbc.sql("""
				UPDATE idempotency_records SET locked_until = statement_timestamp() - INTERVAL '1 second'
				WHERE idempotency_key = ? AND status = 'IN_PROGRESS'""").param(key).update()).isEqualTo(1);
		CompletableFuture<Reply> current = CompletableFuture.supplyAsync(() -> api.pay(key, body));
		assertThat(secondEntered.await(30, TimeUnit.SECONDS)).isTrue();

		mayLeave.countDown();
		Reply first = stale.get(30, TimeUnit.SECONDS);
		Reply second = current.get(30, TimeUnit.SECONDS);

		String paymentId = this.jdbc.sql("SELECT id FROM payments WHERE order_id = ?")
			.param(orderId)
			.query(UUID.class)
			.single()
			.toString();
		assertThat(this.jdbc.sql("SELECT attempt FROM idempotency_records WHERE idempotency_key = ?")
			.param(key)
			.query(Integer.class)
			.single()).isEqualTo(2);
		assertThat(second.status()).isEqualTo(201);
		assertThat(first.status()).isNotEqualTo(500);
		assertThat(events(paymentId)).singleElement()
			.satisfies((event) -> assertThat(event).containsEntry("type", "payment.succeeded"));
	}

	@Test
	void aPaymentReadAgainInsideTheCompletionWritesOneEvent() throws Exception {
		PaymentsApi api = new PaymentsApi(this.port);
		String orderId = "order-" + UUID.randomUUID();
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch mayLeave = new CountDownLatch(1);
		this.gateway.hold(orderId, entered, mayLeave);
		CompletableFuture<Reply> reply = CompletableFuture.supplyAsync(() -> api
			.pay(PaymentIdempotencyIntegrationTests.newKey(), PaymentsApi.paymentBody(orderId, 1800, "ILS")));
		assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
		// The act step's copy goes stale: the completion reads the payment again and
		// writes it (and its event) in a transaction instead of one statement.
		assertThat(
				this.jdbc.sql("UPDATE payments SET version = version + 1 WHERE order_id = ?").param(orderId).update())
			.isEqualTo(1);

		mayLeave.countDown();
		Reply answer = reply.get(30, TimeUnit.SECONDS);

		assertThat(answer.status()).isEqualTo(201);
		assertThat(events(answer.field("id"))).singleElement()
			.satisfies((event) -> assertThat(event).containsEntry("type", "payment.succeeded"));
	}

	private List<Map<String, Object>> events(String resourceId) {
		return this.jdbc.sql("SELECT type, client_id, payload FROM merchant_events WHERE resource_id = ?")
			.param(UUID.fromString(resourceId))
			.query()
			.listOfRows();
	}

	private String clientOf(String paymentId) {
		return this.jdbc.sql("SELECT client_id FROM payments WHERE id = ?")
			.param(UUID.fromString(paymentId))
			.query(String.class)
			.single();
	}

}
