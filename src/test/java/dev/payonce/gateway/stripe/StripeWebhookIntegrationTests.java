package dev.payonce.gateway.stripe;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.stripe.Stripe;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.payonce.MeterReadings;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.gateway.stripe.StripeApiModel.Intent;
import dev.payonce.gateway.stripe.StripeApiModel.StripeFault;
import dev.payonce.idempotency.IdempotencyReconciler;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /webhooks/stripe} over real HTTP on real PostgreSQL, with events signed as
 * Stripe signs them ({@code t=<unix time>,v1=<HMAC-SHA256 of "t.body">}): valid,
 * tampered, stale and replayed signatures; 100 concurrent deliveries of one event; events
 * in shuffled order; and a webhook, a client retry and the reconciler racing on one
 * payment. The PENDING payments come from {@link StripeApiModel}: Stripe charged (or
 * declined) and the answer timed out.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "payonce.gateway.provider=stripe", "payonce.gateway.stripe.secret-key=sk_test_model",
				"payonce.gateway.stripe.webhook-signing-secret=" + StripeWebhookIntegrationTests.SECRET,
				"payonce.gateway.stripe.connect-timeout=1s", "payonce.gateway.stripe.read-timeout=1s",
				"payonce.gateway.stripe.search-settle-time=0s", "payonce.reconciliation.enabled=false",
				"payonce.reconciliation.stale-after=0s" })
@Import(TestcontainersConfiguration.class)
class StripeWebhookIntegrationTests {

	static final String SECRET = "whsec_webhook_test_secret";

	static final StripeApiModel stripe = new StripeApiModel(Duration.ZERO, Duration.ofMillis(1500));

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	MeterRegistry meters;

	@Autowired
	IdempotencyReconciler reconciler;

	@DynamicPropertySource
	static void stripeApi(DynamicPropertyRegistry registry) {
		registry.add("payonce.gateway.stripe.api-base", stripe::baseUrl);
	}

	@AfterAll
	static void stopStripe() {
		stripe.shutdown();
	}

	@Test
	void signedEventSettlesPendingPaymentAndTheClientRetryReplaysIt() {
		Pending pending = pending("pm_card_visa");
		String event = event("payment_intent.succeeded", pending.intent());

		HttpResponse<String> delivered = deliver(event, sign(event, Instant.now()));
		Reply retry = pending.retry();

		assertThat(delivered.statusCode()).isEqualTo(200);
		assertThat(delivered.body()).isEqualTo("{\"received\":true}");
		assertThat(status(pending.paymentId())).isEqualTo("SUCCEEDED");
		assertThat(retry.status()).isEqualTo(201);
		assertThat(retry.header("Idempotent-Replayed")).contains("true");
		assertThat(retry.field("providerReference")).isEqualTo(pending.intent().id());
		assertThat(stripe.createKeys()).as("the retry replayed; it did not call Stripe")
			.containsOnlyOnce("payonce-payment-" + pending.paymentId());
	}

	@Test
	void tamperedStaleAndMissingSignaturesAreRefusedAndChangeNothing() {
		Pending pending = pending("pm_card_visa");
		String event = event("payment_intent.succeeded", pending.intent());
		String tampered = event.replace("\"amount\":1250", "\"amount\":1");

		HttpResponse<String> tamperedAnswer = deliver(tampered, sign(event, Instant.now()));
		HttpResponse<String> staleAnswer = deliver(event, sign(event, Instant.now().minus(Duration.ofMinutes(6))));
		HttpResponse<String> wrongSecret = deliver(event, sign(event, Instant.now(), "whsec_other"));
		HttpResponse<String> unsigned = deliver(event, null);

		for (HttpResponse<String> answer : List.of(tamperedAnswer, staleAnswer, wrongSecret, unsigned)) {
			assertThat(answer.statusCode()).isEqualTo(400);
			assertThat(answer.headers().firstValue("Content-Type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
			assertThat(JSON.readTree(answer.body()).get("type").asString()).endsWith("/webhook-signature-invalid");
		}
		assertThat(status(pending.paymentId())).isEqualTo("PENDING");
		assertThat(eventRows(pending.paymentId())).isZero();
	}

	@Test
	void signedBodyThatIsNotAStripeEventIsRefused() {
		String notAnEvent = "{\"hello\":\"world\"}";

		HttpResponse<String> answer = deliver(notAnEvent, sign(notAnEvent, Instant.now()));

		assertThat(answer.statusCode()).isEqualTo(400);
		assertThat(JSON.readTree(answer.body()).get("type").asString()).endsWith("/invalid-request");
	}

	@Test
	void eventOverTheBodyLimitIsRefusedBeforeItIsRead() {
		String huge = "{\"id\":\"evt_huge\",\"padding\":\"" + "x".repeat(20 * 1024) + "\"}";

		HttpResponse<String> answer = deliver(huge, sign(huge, Instant.now()));

		assertThat(answer.statusCode()).isEqualTo(413);
		assertThat(JSON.readTree(answer.body()).get("type").asString()).endsWith("/payload-too-large");
	}

	@Test
	void replayedDeliveryIsAcknowledgedAndChangesNothing() {
		Pending pending = pending("pm_card_visa");
		String event = event("payment_intent.succeeded", pending.intent());
		String signature = sign(event, Instant.now());
		MeterReadings readings = new MeterReadings(this.meters);
		double succeeded = readings.payments("succeeded");

		HttpResponse<String> first = deliver(event, signature);
		HttpResponse<String> replayed = deliver(event, signature);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(replayed.statusCode()).isEqualTo(200);
		assertThat(eventRows(pending.paymentId())).isEqualTo(1);
		assertThat(readings.payments("succeeded") - succeeded).isEqualTo(1);
	}

	@Test
	void hundredConcurrentDeliveriesOfOneEventHaveOneEffect() throws Exception {
		Pending pending = pending("pm_card_visa");
		String event = event("payment_intent.succeeded", pending.intent());
		MeterReadings readings = new MeterReadings(this.meters);
		double succeeded = readings.payments("succeeded");
		double applied = readings.webhookEvents("applied");
		double deliveries = deliveries(readings);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<Integer>> answers = new ArrayList<>();

		try (ExecutorService threads = Executors.newFixedThreadPool(100)) {
			for (int delivery = 0; delivery < 100; delivery++) {
				answers.add(threads.submit(() -> {
					start.await();
					return deliver(event, sign(event, Instant.now())).statusCode();
				}));
			}
			start.countDown();
		}
		List<Integer> statuses = new ArrayList<>();
		for (Future<Integer> answer : answers) {
			statuses.add(answer.get());
		}
		// Stripe delivers a refused (409) event again; so does this test.
		int redelivered = deliver(event, sign(event, Instant.now())).statusCode();

		assertThat(statuses).hasSize(100).isSubsetOf(200, 409).contains(200);
		assertThat(redelivered).isEqualTo(200);
		assertThat(status(pending.paymentId())).isEqualTo("SUCCEEDED");
		assertThat(eventRows(pending.paymentId())).isEqualTo(1);
		assertThat(readings.payments("succeeded") - succeeded).isEqualTo(1);
		assertThat(readings.webhookEvents("applied") - applied).isEqualTo(1);
		assertThat(deliveries(readings) - deliveries).isEqualTo(101);
	}

	private static double deliveries(MeterReadings readings) {
		return readings.webhookEvents("applied") + readings.webhookEvents("duplicate")
				+ readings.webhookEvents("ignored") + readings.webhookEvents("deferred");
	}

	@Test
	void shuffledEventsSettleEveryPaymentToStripesOutcomeAndNeverBackwards() {
		List<Pending> payments = new ArrayList<>();
		List<String> events = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			Pending pending = pending((i % 2 == 0) ? "pm_card_visa" : "pm_card_chargeDeclined");
			payments.add(pending);
			String type = (i % 2 == 0) ? "payment_intent.succeeded" : "payment_intent.payment_failed";
			String fin = event(type, pending.intent());
			events.add(event("payment_intent.created", pending.intent()));
			events.add(fin);
			events.add(fin);
		}
		// A contradicting late event: the first payment's intent "failed" after it
		// succeeded.
		events.add(event("payment_intent.payment_failed", declinedCopy(payments.get(0).intent())));
		Collections.shuffle(events, new Random(12));

		List<Integer> statuses = events.stream()
			.map((event) -> deliver(event, sign(event, Instant.now())).statusCode())
			.toList();
		for (String event : events) {
			// Every event delivered again, as Stripe may: nothing changes.
			deliver(event, sign(event, Instant.now()));
		}

		assertThat(statuses).containsOnly(200);
		for (int i = 0; i < payments.size(); i++) {
			String paymentId = payments.get(i).paymentId();
			assertThat(status(paymentId)).isEqualTo((i % 2 == 0) ? "SUCCEEDED" : "DECLINED");
			assertThat(reference(paymentId)).isEqualTo(payments.get(i).intent().id());
		}
	}

	@Test
	void successAfterFailureForTheSameIntentNeverMovesThePaymentBack() {
		Pending pending = pending("pm_card_chargeDeclined");
		String failed = event("payment_intent.payment_failed", pending.intent());
		String succeeded = event("payment_intent.succeeded", succeededCopy(pending.intent()));

		HttpResponse<String> first = deliver(failed, sign(failed, Instant.now()));
		HttpResponse<String> late = deliver(succeeded, sign(succeeded, Instant.now()));

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(late.statusCode()).isEqualTo(200);
		assertThat(status(pending.paymentId())).isEqualTo("DECLINED");
		assertThat(declineCode(pending.paymentId())).isEqualTo("generic_decline");
		assertThat(eventRows(pending.paymentId())).isEqualTo(2);
	}

	@Test
	void webhookClientRetryAndReconcilerRacingOnOnePaymentProduceOneOutcome() throws Exception {
		Pending pending = pending("pm_card_visa");
		String event = event("payment_intent.succeeded", pending.intent());
		CountDownLatch start = new CountDownLatch(1);

		Future<Integer> webhook;
		Future<Reply> retry;
		try (ExecutorService threads = Executors.newFixedThreadPool(3)) {
			webhook = threads.submit(() -> {
				start.await();
				return deliver(event, sign(event, Instant.now())).statusCode();
			});
			retry = threads.submit(() -> {
				start.await();
				return pending.retry();
			});
			threads.submit(() -> {
				start.await();
				return this.reconciler.reconcile();
			});
			start.countDown();
		}
		int redelivered = deliver(event, sign(event, Instant.now())).statusCode();
		Reply last = pending.retry();

		assertThat(webhook.get()).isIn(200, 409);
		assertThat(redelivered).isEqualTo(200);
		assertThat(retry.get().status()).isIn(201, 409);
		assertThat(last.status()).isEqualTo(201);
		assertThat(last.field("providerReference")).isEqualTo(pending.intent().id());
		assertThat(status(pending.paymentId())).isEqualTo("SUCCEEDED");
		assertThat(stripe.chargesOf(pending.paymentId())).isEqualTo(1);
	}

	/** A payment Stripe charged or declined, whose answer timed out: PENDING here. */
	private Pending pending(String paymentMethod) {
		String orderId = "webhook-" + UUID.randomUUID();
		stripe.plan(orderId, StripeFault.TIMEOUT_AFTER_CHARGE);
		String key = "key-" + UUID.randomUUID();
		String body = """
				{"orderId":"%s","amount":1250,"currency":"EUR","paymentMethod":"%s"}""".formatted(orderId,
				paymentMethod);
		Reply first = new PaymentsApi(this.port).pay(key, body);
		assertThat(first.problemType()).endsWith("/payment-outcome-unknown");
		String paymentId = first.field("paymentId");
		return new Pending(paymentId, stripe.intentsOf(paymentId).get(0),
				() -> new PaymentsApi(this.port).pay(key, body));
	}

	private static String event(String type, Intent intent) {
		Map<String, Object> event = new LinkedHashMap<>();
		event.put("id", "evt_" + UUID.randomUUID().toString().replace("-", ""));
		event.put("object", "event");
		event.put("api_version", Stripe.API_VERSION);
		event.put("created", Instant.now().getEpochSecond());
		event.put("livemode", false);
		event.put("pending_webhooks", 1);
		event.put("type", type);
		event.put("data", Map.of("object", intent.json()));
		return JSON.writeValueAsString(event);
	}

	private static Intent declinedCopy(Intent intent) {
		return new Intent(intent.id(), intent.paymentId(), intent.amount(), intent.currency(),
				"requires_payment_method", "generic_decline", intent.createdAt());
	}

	private static Intent succeededCopy(Intent intent) {
		return new Intent(intent.id(), intent.paymentId(), intent.amount(), intent.currency(), "succeeded", null,
				intent.createdAt());
	}

	private static String sign(String payload, Instant at) {
		return sign(payload, at, SECRET);
	}

	private static String sign(String payload, Instant at, String secret) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
			String signed = at.getEpochSecond() + "." + payload;
			return "t=" + at.getEpochSecond() + ",v1="
					+ HexFormat.of().formatHex(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
		}
		catch (java.security.GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private HttpResponse<String> deliver(String payload, String signature) {
		HttpRequest.Builder request = HttpRequest
			.newBuilder(URI.create("http://localhost:" + this.port + "/webhooks/stripe"))
			.header("Content-Type", "application/json; charset=utf-8")
			.POST(HttpRequest.BodyPublishers.ofString(payload));
		if (signature != null) {
			request.header("Stripe-Signature", signature);
		}
		try {
			return this.http.send(request.timeout(Duration.ofSeconds(30)).build(),
					HttpResponse.BodyHandlers.ofString());
		}
		catch (java.io.IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private String status(String paymentId) {
		return this.jdbc.sql("SELECT status FROM payments WHERE id = ?::uuid")
			.param(paymentId)
			.query(String.class)
			.single();
	}

	private String reference(String paymentId) {
		return this.jdbc.sql("SELECT provider_reference FROM payments WHERE id = ?::uuid")
			.param(paymentId)
			.query(String.class)
			.single();
	}

	private String declineCode(String paymentId) {
		return this.jdbc.sql("SELECT decline_code FROM payments WHERE id = ?::uuid")
			.param(paymentId)
			.query(String.class)
			.single();
	}

	private long eventRows(String paymentId) {
		return this.jdbc.sql("SELECT count(*) FROM provider_webhook_events WHERE payment_id = ?::uuid")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

	private record Pending(String paymentId, Intent intent, java.util.function.Supplier<Reply> retrier) {

		Reply retry() {
			return this.retrier.get();
		}

	}

}
