package dev.payonce.gateway.stripe;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
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
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.TestPropertySource;

import dev.payonce.MeterReadings;
import dev.payonce.gateway.stripe.StripeApiModel.Intent;
import dev.payonce.gateway.stripe.StripeApiModel.RefundEntry;
import dev.payonce.gateway.stripe.StripeApiModel.StripeFault;
import dev.payonce.idempotency.RequestFingerprint;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /webhooks/stripe} over real HTTP on real PostgreSQL, with events signed as
 * Stripe signs them ({@code t=<unix time>,v1=<HMAC-SHA256 of "t.body">}): valid,
 * tampered, stale and replayed signatures; each event as the engine's
 * {@code webhook_event} operation (a replay of its stored acknowledgement, 409 while
 * another delivery holds it, a takeover after a crash); 100 concurrent deliveries of one
 * event; payment and refund events in shuffled order; unknown types and unknown payments;
 * and a webhook, a client retry and the reconciler racing on one payment and on one
 * refund. The PENDING payments and refunds come from {@link StripeApiModel}: Stripe
 * charged (or refunded) and the connection was reset before its answer, and again before
 * the answer to the HTTP client's own resend: an outcome as unknown as a timeout's,
 * without waiting out a read timeout.
 */
@TestPropertySource(properties = { "payonce.gateway.stripe.secret-key=sk_test_model",
		"payonce.gateway.stripe.webhook-signing-secret=" + StripeWebhookIntegrationTests.SECRET,
		"payonce.gateway.stripe.search-settle-time=0s", "payonce.reconciliation.stale-after=0s",
		"test.stripe-model.search-lag=0s",
		// 100 deliveries at once share the tests' 3 connections: on a loaded
		// machine the 2 s default wait turns some into 503 (which Stripe would
		// redeliver too), hiding the in-progress answer this class asserts.
		"spring.datasource.hikari.connection-timeout=30000" })
class StripeWebhookIntegrationTests extends StripeIntegrationFixture {

	static final String SECRET = "whsec_webhook_test_secret";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	@Autowired
	MeterRegistry meters;

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
		assertThat(stripe.createKeys())
			.as("the first request and the HTTP client's resend; the retry replayed, it did not call Stripe")
			.filteredOn(("payonce-payment-" + pending.paymentId())::equals)
			.hasSize(2);
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
		HttpResponse<String> future = deliver(event, sign(event, Instant.now().plus(Duration.ofMinutes(6))));
		String valid = sign(event, Instant.now());
		HttpResponse<String> garbledTimestamp = deliver(event, valid.replaceFirst("t=\\d+", "t=abc"));
		HttpResponse<String> hugeTimestamp = deliver(event, valid.replaceFirst("t=\\d+", "t=99999999999999999999999"));
		HttpResponse<String> noTimestamp = deliver(event, valid.replaceFirst("t=\\d+,", ""));

		for (HttpResponse<String> answer : List.of(tamperedAnswer, staleAnswer, wrongSecret, unsigned, future,
				garbledTimestamp, hugeTimestamp, noTimestamp)) {
			assertThat(answer.statusCode()).isEqualTo(400);
			assertThat(answer.headers().firstValue("Content-Type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
			assertThat(JSON.readTree(answer.body()).get("type").asString()).endsWith("/webhook-signature-invalid");
		}
		assertThat(status(pending.paymentId())).isEqualTo("PENDING");
		assertThat(eventRows(pending.paymentId())).isZero();
		settle(pending);
	}

	@Test
	void signedBodyThatIsNotAStripeEventIsRefused() {
		String notAnEvent = "{\"hello\":\"world\"}";

		HttpResponse<String> answer = deliver(notAnEvent, sign(notAnEvent, Instant.now()));

		assertThat(answer.statusCode()).isEqualTo(400);
		assertThat(JSON.readTree(answer.body()).get("type").asString()).endsWith("/invalid-request");
	}

	@Test
	void signedEventWithoutApiVersionIsReadLenientlyAndSettlesThePayment() {
		Pending pending = pending("pm_card_visa");
		Map<String, Object> event = JSON.readValue(event("payment_intent.succeeded", pending.intent()),
				LinkedHashMap.class);
		event.remove("api_version");
		String withoutVersion = JSON.writeValueAsString(event);

		HttpResponse<String> answer = deliver(withoutVersion, sign(withoutVersion, Instant.now()));

		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(status(pending.paymentId())).isEqualTo("SUCCEEDED");
	}

	@Test
	void signedEventsOfAConsumedTypeWithoutAUsableDataObjectAreRefusedAndChangeNothing() {
		Pending pending = pending("pm_card_visa");
		Map<String, Object> valid = JSON.readValue(event("payment_intent.succeeded", pending.intent()),
				LinkedHashMap.class);
		List<Map<String, Object>> broken = new ArrayList<>();
		for (Object data : Arrays.asList(null, "text", Map.of(), Map.of("object", "text"),
				Map.of("object", Map.of("object", "customer", "id", "cus_1")))) {
			Map<String, Object> event = new LinkedHashMap<>(valid);
			event.put("id", "evt_" + UUID.randomUUID().toString().replace("-", ""));
			event.put("data", data);
			broken.add(event);
			Map<String, Object> withoutVersion = new LinkedHashMap<>(event);
			withoutVersion.put("id", "evt_" + UUID.randomUUID().toString().replace("-", ""));
			withoutVersion.remove("api_version");
			broken.add(withoutVersion);
		}

		for (Map<String, Object> event : broken) {
			String payload = JSON.writeValueAsString(event);
			HttpResponse<String> answer = deliver(payload, sign(payload, Instant.now()));
			assertThat(answer.statusCode()).as(payload).isEqualTo(400);
			assertThat(JSON.readTree(answer.body()).get("type").asString()).as(payload).endsWith("/invalid-request");
		}
		assertThat(status(pending.paymentId())).isEqualTo("PENDING");
		assertThat(eventRows(pending.paymentId())).isZero();
		settle(pending);
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
		assertThat(replayed.body()).isEqualTo(first.body());
		assertThat(eventRows(pending.paymentId())).isEqualTo(1);
		assertThat(readings.payments("succeeded") - succeeded).isEqualTo(1);
		assertThat(readings.webhookEvents("duplicate")).isPositive();
		assertThat(eventRecord(eventId(event))).as("one engine record, completed by the first delivery")
			.isEqualTo(new EventRecord("webhook_event", "COMPLETED", 1, 200));
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
		assertThat(eventRecord(eventId(event))).isEqualTo(new EventRecord("webhook_event", "COMPLETED", 1, 200));
	}

	private static double deliveries(MeterReadings readings) {
		return readings.webhookEvents("applied") + readings.webhookEvents("duplicate")
				+ readings.webhookEvents("ignored") + readings.webhookEvents("deferred")
				+ readings.webhookEvents("in_progress");
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

	@Test
	void concurrentDeliveryFindsTheEventsLeaseHeldAndIsAnsweredSoStripeDeliversAgain() {
		Pending pending = pending("pm_card_visa");
		String event = event("payment_intent.succeeded", pending.intent());
		// What a delivery being handled right now looks like: its claim, lease running.
		claimEvent(event, "payment:" + pending.paymentId(), Instant.now().plus(Duration.ofMinutes(1)));

		HttpResponse<String> concurrent = deliver(event, sign(event, Instant.now()));

		assertThat(concurrent.statusCode()).isEqualTo(409);
		assertThat(concurrent.headers().firstValue("Retry-After")).isPresent();
		assertThat(JSON.readTree(concurrent.body()).get("type").asString()).endsWith("/webhook-event-in-progress");
		assertThat(status(pending.paymentId())).isEqualTo("PENDING");
		assertThat(eventRows(pending.paymentId())).isZero();
		forgetEvent(event);
	}

	@Test
	void deliveryCutShortByACrashIsTakenOverByTheRedeliveryOnceItsLeaseEnds() {
		Pending pending = pending("pm_card_visa");
		String event = event("payment_intent.succeeded", pending.intent());
		// What a crash between the claim and the acknowledgement leaves: the claim, its
		// lease run out, nothing applied.
		claimEvent(event, "payment:" + pending.paymentId(), Instant.now().minus(Duration.ofSeconds(1)));

		HttpResponse<String> redelivered = deliver(event, sign(event, Instant.now()));
		HttpResponse<String> again = deliver(event, sign(event, Instant.now()));

		assertThat(redelivered.statusCode()).isEqualTo(200);
		assertThat(again.statusCode()).isEqualTo(200);
		assertThat(status(pending.paymentId())).isEqualTo("SUCCEEDED");
		assertThat(eventRows(pending.paymentId())).isEqualTo(1);
		assertThat(eventRecord(eventId(event))).as("taken over once, then replayed")
			.isEqualTo(new EventRecord("webhook_event", "COMPLETED", 2, 200));
	}

	@Test
	void eventRecordStrandedByACrashIsCompletedByTheReconcilerOnlyAfterStripesRetryWindow() {
		Intent intent = new Intent("pi_stranded" + UUID.randomUUID().toString().substring(0, 8),
				UUID.randomUUID().toString(), 999, "eur", "succeeded", null, Instant.now());
		String abandoned = event("payment_intent.succeeded", intent);
		String recent = event("payment_intent.succeeded", intent);
		claimEvent(abandoned, "payment:" + intent.paymentId(),
				Instant.now().minus(Duration.ofDays(3)).minus(Duration.ofMinutes(1)));
		claimEvent(recent, "payment:" + intent.paymentId(), Instant.now().minus(Duration.ofMinutes(1)));

		this.reconciler.reconcile();
		HttpResponse<String> resent = deliver(abandoned, sign(abandoned, Instant.now()));

		assertThat(eventRecord(eventId(abandoned))).as("completed with the acknowledgement, nothing applied")
			.isEqualTo(new EventRecord("webhook_event", "COMPLETED", 2, 200));
		assertThat(eventRecord(eventId(recent))).as("left for Stripe's redelivery")
			.isEqualTo(new EventRecord("webhook_event", "IN_PROGRESS", 1, 0));
		assertThat(resent.statusCode()).isEqualTo(200);
		assertThat(ledgerRowCount(eventId(abandoned))).isZero();
		forgetEvent(recent);
	}

	@Test
	void unknownTypesAndObjectsPayonceDoesNotOwnAreAcknowledgedWithoutARecord() {
		Intent foreign = new Intent("pi_foreign" + UUID.randomUUID().toString().substring(0, 8), null, 999, "eur",
				"succeeded", null, Instant.now());
		List<String> events = List.of(
				event("customer.created", Map.of("id", "cus_123", "object", "customer", "metadata", Map.of())),
				event("charge.refunded", Map.of("id", "ch_123", "object", "charge", "amount", 999, "amount_refunded",
						999, "refunded", true, "metadata", Map.of())),
				event("payment_intent.succeeded", foreign.json()));

		List<Integer> statuses = events.stream()
			.map((event) -> deliver(event, sign(event, Instant.now())).statusCode())
			.toList();

		assertThat(statuses).containsOnly(200);
		for (String event : events) {
			assertThat(eventRecordCount(eventId(event))).isZero();
			assertThat(ledgerRowCount(eventId(event))).isZero();
		}
	}

	@Test
	void eventForAPaymentPayonceDoesNotKnowIsAcknowledgedAndChangesNothing() {
		String unknownPayment = UUID.randomUUID().toString();
		Intent intent = new Intent("pi_unknown" + UUID.randomUUID().toString().substring(0, 8), unknownPayment, 999,
				"eur", "succeeded", null, Instant.now());
		String event = event("payment_intent.succeeded", intent);

		HttpResponse<String> answer = deliver(event, sign(event, Instant.now()));

		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(this.jdbc.sql("SELECT count(*) FROM payments WHERE id = ?::uuid")
			.param(unknownPayment)
			.query(Long.class)
			.single()).isZero();
		assertThat(this.jdbc.sql("SELECT effect FROM provider_webhook_events WHERE event_id = ?")
			.param(eventId(event))
			.query(String.class)
			.single()).isEqualTo("IGNORED");
	}

	@Test
	void signedPaymentEventsWhoseObjectDiffersFromThePaymentChangeNothing() {
		Pending pending = pending("pm_card_visa");
		Map<String, Object> intent = pending.intent().json();
		List<Map<String, Object>> objects = new ArrayList<>();
		for (Map.Entry<String, Object> change : List.<Map.Entry<String, Object>>of(Map.entry("amount", 1),
				Map.entry("currency", "usd"), Map.entry("amount", 125000))) {
			Map<String, Object> object = new LinkedHashMap<>(intent);
			object.put("status", "succeeded");
			object.put(change.getKey(), change.getValue());
			objects.add(object);
		}
		Map<String, Object> withoutAmount = new LinkedHashMap<>(intent);
		withoutAmount.remove("amount");
		objects.add(withoutAmount);

		for (Map<String, Object> object : objects) {
			String event = event("payment_intent.succeeded", object);
			HttpResponse<String> answer = deliver(event, sign(event, Instant.now()));
			assertThat(answer.statusCode()).as(event).isEqualTo(200);
		}

		assertThat(status(pending.paymentId())).isEqualTo("PENDING");
		assertThat(this.jdbc.sql("SELECT provider_reference IS NULL FROM payments WHERE id = ?::uuid")
			.param(pending.paymentId())
			.query(Boolean.class)
			.single()).isTrue();
		settle(pending);
		assertThat(status(pending.paymentId())).as("the matching event still applies").isEqualTo("SUCCEEDED");
	}

	@Test
	void signedEventForAnotherPaymentIntentThanTheStoredOneChangesNothing() {
		Pending pending = pending("pm_card_visa");
		String settling = event("payment_intent.payment_failed", declinedCopy(pending.intent()));
		assertThat(deliver(settling, sign(settling, Instant.now())).statusCode()).isEqualTo(200);
		assertThat(status(pending.paymentId())).isEqualTo("DECLINED");
		Map<String, Object> other = new LinkedHashMap<>(succeededCopy(pending.intent()).json());
		other.put("id", "pi_someone_else");

		String event = event("payment_intent.succeeded", other);
		HttpResponse<String> answer = deliver(event, sign(event, Instant.now()));

		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(status(pending.paymentId())).isEqualTo("DECLINED");
		assertThat(reference(pending.paymentId())).isEqualTo(pending.intent().id());
	}

	@Test
	void signedRefundEventWhoseAmountDiffersFromTheRefundChangesNothing() {
		PendingRefund pending = pendingRefund(500);
		Map<String, Object> object = pending.refund().json();
		object.put("amount", 100);

		String event = event("refund.updated", object);
		HttpResponse<String> answer = deliver(event, sign(event, Instant.now()));

		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(refundStatus(pending.refundId())).isEqualTo("PENDING");
		assertThat(refundedAmount(pending.paymentId())).isZero();
		String matching = refundEvent("refund.updated", pending.refund(), "succeeded");
		assertThat(deliver(matching, sign(matching, Instant.now())).statusCode()).isEqualTo(200);
		assertThat(refundStatus(pending.refundId())).as("the matching event still applies").isEqualTo("SUCCEEDED");
	}

	@Test
	void refundEventSettlesPendingRefundAndTheClientRetryReplaysIt() {
		PendingRefund pending = pendingRefund(500);
		String event = refundEvent("refund.updated", pending.refund(), "succeeded");

		HttpResponse<String> delivered = deliver(event, sign(event, Instant.now()));
		Reply retry = pending.retry();

		assertThat(delivered.statusCode()).isEqualTo(200);
		assertThat(refundStatus(pending.refundId())).isEqualTo("SUCCEEDED");
		assertThat(refundedAmount(pending.paymentId())).isEqualTo(500);
		assertThat(retry.status()).isEqualTo(201);
		assertThat(retry.header("Idempotent-Replayed")).contains("true");
		assertThat(retry.field("providerReference")).isEqualTo(pending.refund().id());
		assertThat(stripe.refundsOf(pending.intentId())).hasSize(1);
	}

	@Test
	void failedRefundEventDeclinesPendingRefundAndGivesItsReservationBack() {
		PendingRefund pending = pendingRefund(700);
		String failed = refundEvent("refund.failed", pending.refund(), "failed");

		HttpResponse<String> delivered = deliver(failed, sign(failed, Instant.now()));
		Reply retry = pending.retry();

		assertThat(delivered.statusCode()).isEqualTo(200);
		assertThat(refundStatus(pending.refundId())).isEqualTo("DECLINED");
		assertThat(refundedAmount(pending.paymentId())).isZero();
		assertThat(retry.status()).isEqualTo(402);
		assertThat(retry.problemType()).endsWith("/refund-declined");
		assertThat(eventTypes(pending.refundId())).as("the event's effect wrote its merchant event")
			.containsExactly("refund.declined");
	}

	@Test
	void shuffledRefundAndPaymentEventsSettleEachRefundOnceAndNeverBackwards() {
		List<PendingRefund> refunds = new ArrayList<>();
		List<String> events = new ArrayList<>();
		List<String> late = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			PendingRefund pending = pendingRefund(400);
			refunds.add(pending);
			boolean succeeds = i % 2 == 0;
			String fin = refundEvent(succeeds ? "refund.updated" : "refund.failed", pending.refund(),
					succeeds ? "succeeded" : "failed");
			events.add(refundEvent("refund.created", pending.refund(), "pending"));
			events.add(fin);
			events.add(fin);
			// The payment's own succeeded event, late: after its refund's events.
			events.add(event("payment_intent.succeeded", stripe.intentsOf(pending.paymentId()).get(0)));
			// Stale events after the final one: a succeeded refund "pending" again, a
			// failed one "succeeding" (a refund failing after it succeeded is real and
			// has a test of its own).
			late.add(refundEvent(succeeds ? "refund.created" : "refund.updated", pending.refund(),
					succeeds ? "pending" : "succeeded"));
		}
		Collections.shuffle(events, new Random(12));
		late.addAll(events);
		Collections.shuffle(late, new Random(13));

		List<Integer> statuses = events.stream()
			.map((event) -> deliver(event, sign(event, Instant.now())).statusCode())
			.toList();
		List<Integer> lateStatuses = late.stream()
			.map((event) -> deliver(event, sign(event, Instant.now())).statusCode())
			.toList();

		assertThat(statuses).containsOnly(200);
		assertThat(lateStatuses).containsOnly(200);
		for (int i = 0; i < refunds.size(); i++) {
			PendingRefund pending = refunds.get(i);
			boolean succeeds = i % 2 == 0;
			assertThat(refundStatus(pending.refundId())).isEqualTo(succeeds ? "SUCCEEDED" : "DECLINED");
			assertThat(refundedAmount(pending.paymentId())).isEqualTo(succeeds ? 400 : 0);
			assertThat(status(pending.paymentId())).isEqualTo("SUCCEEDED");
			assertThat(this.jdbc
				.sql("SELECT count(*) FROM provider_webhook_events WHERE refund_id = ?::uuid AND effect = 'APPLIED'")
				.param(pending.refundId())
				.query(Long.class)
				.single()).as("one event settled the refund").isEqualTo(1);
		}
	}

	@Test
	void webhookClientRetryAndReconcilerRacingOnOneRefundProduceOneOutcome() throws Exception {
		PendingRefund pending = pendingRefund(600);
		String event = refundEvent("refund.updated", pending.refund(), "succeeded");
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
		assertThat(last.field("providerReference")).isEqualTo(pending.refund().id());
		assertThat(refundStatus(pending.refundId())).isEqualTo("SUCCEEDED");
		assertThat(refundedAmount(pending.paymentId())).isEqualTo(600);
		assertThat(stripe.refundsOf(pending.intentId())).hasSize(1);
	}

	@Test
	void signatureHeaderWithASecondTimestampIsRefusedAndSettlesNothing() {
		Pending pending = pending("pm_card_visa");
		String event = event("payment_intent.succeeded", pending.intent());
		Instant now = Instant.now();
		Instant later = now.plus(Duration.ofDays(30));
		String future = sign(event, later);
		String futureV1 = future.substring(future.indexOf(",v1=") + 1);
		String valid = sign(event, now);
		String validV1 = valid.substring(valid.indexOf(",v1=") + 1);
		long t = now.getEpochSecond();
		List<String> headers = List.of(
				// The probe's input: the freshness check read the first, the signature
				// the second.
				"t =" + t + ",t=" + later.getEpochSecond() + "," + futureV1,
				"t=" + t + ",t=" + later.getEpochSecond() + "," + futureV1,
				"t=" + later.getEpochSecond() + ",t=" + t + "," + futureV1, "t=" + t + ",t=" + t + "," + validV1,
				// (Leading and trailing whitespace of a header value is HTTP's own, RFC
				// 9110 section 5.5: the server never sees it.)
				"t= " + t + "," + validV1, "t=" + t + " ," + validV1, "t=" + t + ", " + validV1,
				"t=" + t + ",," + validV1, "t=" + t + "," + validV1 + ",", "t=-" + t + "," + validV1,
				"t=+" + t + "," + validV1, "t=0" + t + "," + validV1, "t=" + t + ".0," + validV1,
				"t=99999999999999999999," + validV1, "t=" + t + ",v1=", "t=" + t + ",v0=" + validV1.substring(3), "",
				" ");

		List<HttpResponse<String>> answers = headers.stream().map((header) -> deliver(event, header)).toList();

		for (int i = 0; i < answers.size(); i++) {
			assertThat(answers.get(i).statusCode()).as(headers.get(i)).isEqualTo(400);
			assertThat(JSON.readTree(answers.get(i).body()).get("type").asString()).as(headers.get(i))
				.endsWith("/webhook-signature-invalid");
		}
		assertThat(status(pending.paymentId())).isEqualTo("PENDING");
		assertThat(eventRows(pending.paymentId())).isZero();
		assertThat(deliver(event, valid).statusCode()).as("the same event, signed once, still applies").isEqualTo(200);
		assertThat(status(pending.paymentId())).isEqualTo("SUCCEEDED");
	}

	@Test
	void signatureHeaderWithSeveralV1ValuesWhileASecretRollsIsAccepted() {
		Pending pending = pending("pm_card_visa");
		String event = event("payment_intent.succeeded", pending.intent());
		Instant now = Instant.now();
		String old = sign(event, now, "whsec_rolled_out");
		String current = sign(event, now);
		String v0 = ",v0=" + "6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39";

		HttpResponse<String> answer = deliver(event, old + current.substring(current.indexOf(",v1=")) + v0);

		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(status(pending.paymentId())).isEqualTo("SUCCEEDED");
	}

	@Test
	void bodyThatIsNotJsonIsRefusedAsASignatureProblemUnlessStripeSignedIt() {
		List<String> bodies = List.of("not json at all", "{\"id\":", "<xml/>", "");

		List<HttpResponse<String>> wrong = bodies.stream()
			.map((body) -> deliver(body, sign(body, Instant.now(), "whsec_other")))
			.toList();
		List<HttpResponse<String>> unsigned = bodies.stream().map((body) -> deliver(body, null)).toList();
		List<HttpResponse<String>> garbled = bodies.stream().map((body) -> deliver(body, "t=,v1=")).toList();
		HttpResponse<String> signed = deliver("not json at all", sign("not json at all", Instant.now()));

		for (HttpResponse<String> answer : concat(wrong, unsigned, garbled)) {
			assertThat(answer.statusCode()).isEqualTo(400);
			assertThat(JSON.readTree(answer.body()).get("type").asString()).endsWith("/webhook-signature-invalid");
		}
		assertThat(signed.statusCode()).isEqualTo(400);
		assertThat(JSON.readTree(signed.body()).get("type").asString()).endsWith("/invalid-request");
	}

	@Test
	void twoSignatureHeadersAreRefusedEvenWhenOneVerifies() {
		Pending pending = pending("pm_card_visa");
		String event = event("payment_intent.succeeded", pending.intent());
		String valid = sign(event, Instant.now());
		String forged = sign(event, Instant.now(), "whsec_forged");

		List<HttpResponse<String>> answers = List.of(deliverWithHeaders(event, valid, forged),
				deliverWithHeaders(event, forged, valid), deliverWithHeaders(event, valid, valid));

		for (HttpResponse<String> answer : answers) {
			assertThat(answer.statusCode()).isEqualTo(400);
			assertThat(JSON.readTree(answer.body()).get("type").asString()).endsWith("/webhook-signature-invalid");
		}
		assertThat(status(pending.paymentId())).isEqualTo("PENDING");
		assertThat(eventRows(pending.paymentId())).isZero();
		settle(pending);
	}

	@Test
	void eventOfTheOtherModeIsAcknowledgedRecordedIgnoredAndSettlesNothing() {
		Pending pending = pending("pm_card_visa");
		Map<String, Object> live = JSON.readValue(event("payment_intent.succeeded", pending.intent()),
				LinkedHashMap.class);
		live.put("livemode", true);
		Map<String, Object> unstated = new LinkedHashMap<>(live);
		unstated.put("id", "evt_" + UUID.randomUUID().toString().replace("-", ""));
		unstated.remove("livemode");
		// Stripe's livemode is a JSON boolean; a string spelling this adapter's mode is
		// no
		// statement of it (Gson alone would read it as false).
		Map<String, Object> spelled = new LinkedHashMap<>(live);
		spelled.put("id", "evt_" + UUID.randomUUID().toString().replace("-", ""));
		spelled.put("livemode", "false");
		String liveEvent = JSON.writeValueAsString(live);
		String unstatedEvent = JSON.writeValueAsString(unstated);
		String spelledEvent = JSON.writeValueAsString(spelled);

		HttpResponse<String> answer = deliver(liveEvent, sign(liveEvent, Instant.now()));
		HttpResponse<String> again = deliver(liveEvent, sign(liveEvent, Instant.now()));
		HttpResponse<String> withoutMode = deliver(unstatedEvent, sign(unstatedEvent, Instant.now()));
		HttpResponse<String> modeAsText = deliver(spelledEvent, sign(spelledEvent, Instant.now()));

		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(again.statusCode()).isEqualTo(200);
		assertThat(withoutMode.statusCode()).isEqualTo(200);
		assertThat(modeAsText.statusCode()).isEqualTo(200);
		assertThat(status(pending.paymentId())).isEqualTo("PENDING");
		assertThat(this.jdbc.sql("SELECT provider_reference IS NULL FROM payments WHERE id = ?::uuid")
			.param(pending.paymentId())
			.query(Boolean.class)
			.single()).as("no provider reference taken from the other mode's object").isTrue();
		assertThat(ledgerEffect(eventId(liveEvent))).isEqualTo("IGNORED");
		assertThat(ledgerEffect(eventId(unstatedEvent))).isEqualTo("IGNORED");
		assertThat(ledgerEffect(eventId(spelledEvent))).isEqualTo("IGNORED");
		settle(pending);
	}

	@Test
	void dashboardRefundReducesWhatRemainsSoRefundingAllThatRemainsSucceeds() {
		Paid paid = paid(10_000);
		RefundEntry dashboard = stripe.refundOutsidePayonce(paid.intentId(), 1_500);
		String created = event("refund.created", dashboard.json());
		String charge = event("charge.refunded", stripe.chargeOf(paid.intentId()));

		int createdAnswer = deliver(created, sign(created, Instant.now())).statusCode();
		int chargeAnswer = deliver(charge, sign(charge, Instant.now())).statusCode();
		Reply rest = new PaymentsApi(this.port).refund(paid.paymentId(), "rest-" + UUID.randomUUID(), "{}");

		assertThat(createdAnswer).isEqualTo(200);
		assertThat(chargeAnswer).isEqualTo(200);
		assertThat(externalRefunded(paid.paymentId())).isEqualTo(1_500);
		assertThat(rest.status()).as(rest.body()).isEqualTo(201);
		assertThat(rest.field("amount")).isEqualTo("8500");
		assertThat(stripe.refundsOf(paid.intentId()).stream().mapToLong(RefundEntry::amount).sum()).isEqualTo(10_000);
		Reply more = new PaymentsApi(this.port).refund(paid.paymentId(), "more-" + UUID.randomUUID(), "{}");
		assertThat(more.status()).isEqualTo(409);
		assertThat(more.problemType()).endsWith("/refund-exceeds-refundable");
	}

	@Test
	void chargeRefundedAloneRecordsEveryRefundOutsidePayonceOnceByListingThemAtStripe() {
		Paid paid = paid(10_000);
		Reply ours = new PaymentsApi(this.port).refund(paid.paymentId(), "ours-" + UUID.randomUUID(),
				"{\"amount\":1000}");
		assertThat(ours.status()).isEqualTo(201);
		RefundEntry first = stripe.refundOutsidePayonce(paid.intentId(), 1_500);
		RefundEntry second = stripe.refundOutsidePayonce(paid.intentId(), 500);
		String charge = event("charge.refunded", stripe.chargeOf(paid.intentId()));
		String created = refundEvent("refund.created", first, "succeeded");

		int answer = deliver(charge, sign(charge, Instant.now())).statusCode();
		int again = deliver(charge, sign(charge, Instant.now())).statusCode();
		int createdAnswer = deliver(created, sign(created, Instant.now())).statusCode();
		Reply rest = new PaymentsApi(this.port).refund(paid.paymentId(), "rest-" + UUID.randomUUID(), "{}");

		assertThat(answer).isEqualTo(200);
		assertThat(again).isEqualTo(200);
		assertThat(createdAnswer).isEqualTo(200);
		assertThat(externalRefunded(paid.paymentId())).as("Payonce's own refund is not counted twice").isEqualTo(2_000);
		assertThat(providerRefundRows(paid.paymentId())).isEqualTo(2);
		assertThat(providerRefundStatus(second.id())).isEqualTo("SUCCEEDED");
		assertThat(rest.status()).as(rest.body()).isEqualTo(201);
		assertThat(rest.field("amount")).isEqualTo("7000");
	}

	@Test
	void eventsOfOneRefundOutsidePayonceInAnyOrderAndRepeatedCountItOnceAndNeverBackwards() {
		Paid paid = paid(4_000);
		RefundEntry dashboard = stripe.refundOutsidePayonce(paid.intentId(), 1_000);
		List<String> events = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			events.add(refundEvent("refund.created", dashboard, "pending"));
			events.add(refundEvent("refund.updated", dashboard, "succeeded"));
			events.add(refundEvent("charge.refund.updated", dashboard, "succeeded"));
			events.add(event("charge.refunded", stripe.chargeOf(paid.intentId())));
		}
		Collections.shuffle(events, new Random(29));
		String failed = refundEvent("refund.failed", dashboard, "failed");
		String lateSuccess = refundEvent("refund.updated", dashboard, "succeeded");

		List<Integer> answers = events.stream()
			.map((event) -> deliver(event, sign(event, Instant.now())).statusCode())
			.toList();
		List<Integer> redelivered = events.stream()
			.map((event) -> deliver(event, sign(event, Instant.now())).statusCode())
			.toList();
		long counted = externalRefunded(paid.paymentId());
		int failedAnswer = deliver(failed, sign(failed, Instant.now())).statusCode();
		long afterFailure = externalRefunded(paid.paymentId());
		int lateAnswer = deliver(lateSuccess, sign(lateSuccess, Instant.now())).statusCode();

		assertThat(answers).containsOnly(200);
		assertThat(redelivered).containsOnly(200);
		assertThat(failedAnswer).isEqualTo(200);
		assertThat(lateAnswer).isEqualTo(200);
		assertThat(counted).isEqualTo(1_000);
		assertThat(afterFailure).as("a failed refund gives its amount back").isZero();
		assertThat(externalRefunded(paid.paymentId())).as("never back from FAILED").isZero();
		assertThat(providerRefundRows(paid.paymentId())).isEqualTo(1);
		assertThat(providerRefundStatus(dashboard.id())).isEqualTo("FAILED");
	}

	@Test
	void concurrentEventsOfOneRefundOutsidePayonceCountItOnce() throws Exception {
		Paid paid = paid(3_000);
		RefundEntry dashboard = stripe.refundOutsidePayonce(paid.intentId(), 1_200);
		List<String> events = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			events.add(refundEvent((i % 2 == 0) ? "refund.created" : "refund.updated", dashboard, "succeeded"));
		}
		CountDownLatch start = new CountDownLatch(1);
		List<Future<Integer>> answers = new ArrayList<>();

		try (ExecutorService threads = Executors.newFixedThreadPool(events.size())) {
			for (String event : events) {
				String signature = sign(event, Instant.now());
				answers.add(threads.submit(() -> {
					start.await();
					return deliver(event, signature).statusCode();
				}));
			}
			start.countDown();
		}

		for (Future<Integer> answer : answers) {
			assertThat(answer.get()).isEqualTo(200);
		}
		assertThat(externalRefunded(paid.paymentId())).isEqualTo(1_200);
		assertThat(providerRefundRows(paid.paymentId())).isEqualTo(1);
	}

	@Test
	void refundOutsidePayonceLargerThanWhatPayonceHasLeftIsRecordedAndAFailureAfterSuccessGivesBack() {
		Paid paid = paid(1_000);
		Reply ours = new PaymentsApi(this.port).refund(paid.paymentId(), "ours-" + UUID.randomUUID(),
				"{\"amount\":800}");
		assertThat(ours.status()).isEqualTo(201);
		RefundEntry ourRefund = stripe.refundsOf(paid.intentId()).get(0);
		// Stripe: our refund fails (the bank returned it), and the merchant refunds 500
		// in the Dashboard before Payonce hears of the failure.
		stripe.forgetRefund(ourRefund.id());
		RefundEntry dashboard = stripe.refundOutsidePayonce(paid.intentId(), 500);
		String outside = refundEvent("refund.created", dashboard, "succeeded");
		String failed = refundEvent("refund.failed", ourRefund, "failed");
		String failedAgain = refundEvent("charge.refund.updated", ourRefund, "failed");

		int outsideAnswer = deliver(outside, sign(outside, Instant.now())).statusCode();
		Reply whileBoth = new PaymentsApi(this.port).refund(paid.paymentId(), "mid-" + UUID.randomUUID(), "{}");
		int failedAnswer = deliver(failed, sign(failed, Instant.now())).statusCode();
		int againAnswer = deliver(failedAgain, sign(failedAgain, Instant.now())).statusCode();
		Reply rest = new PaymentsApi(this.port).refund(paid.paymentId(), "rest-" + UUID.randomUUID(), "{}");

		assertThat(outsideAnswer).isEqualTo(200);
		assertThat(whileBoth.status()).isEqualTo(409);
		assertThat(whileBoth.field("refundableAmount")).isEqualTo("0");
		assertThat(failedAnswer).isEqualTo(200);
		assertThat(againAnswer).isEqualTo(200);
		assertThat(refundStatus(ours.field("id"))).isEqualTo("DECLINED");
		assertThat(externalRefunded(paid.paymentId())).isEqualTo(500);
		assertThat(rest.status()).as(rest.body()).isEqualTo(201);
		assertThat(rest.field("amount")).isEqualTo("500");
		assertThat(refundedAmount(paid.paymentId())).isEqualTo(500);
		assertThat(this.jdbc
			.sql("SELECT count(*) FROM provider_webhook_events WHERE refund_id = ?::uuid AND effect = 'APPLIED'")
			.param(ours.field("id"))
			.query(Long.class)
			.single()).as("one of the two failure events gave the amount back").isEqualTo(1);
		assertThat(eventTypes(ours.field("id"))).as("one merchant event per committed change")
			.containsExactly("refund.succeeded", "refund.declined");
	}

	private List<String> eventTypes(String resourceId) {
		return this.jdbc.sql("SELECT type FROM merchant_events WHERE resource_id = ?::uuid ORDER BY seq")
			.param(resourceId)
			.query(String.class)
			.list();
	}

	@Test
	void paymentSucceededAfterPayonceAnsweredDeclinedIsMarkedAndCounted() {
		Pending pending = pending("pm_card_chargeDeclined");
		String failed = event("payment_intent.payment_failed", pending.intent());
		String succeeded = event("payment_intent.succeeded", succeededCopy(pending.intent()));
		double before = this.meters.counter("payonce.payments.succeeded.after.decline").count();

		deliver(failed, sign(failed, Instant.now()));
		HttpResponse<String> late = deliver(succeeded, sign(succeeded, Instant.now()));
		HttpResponse<String> again = deliver(succeeded, sign(succeeded, Instant.now()));

		assertThat(late.statusCode()).isEqualTo(200);
		assertThat(again.statusCode()).isEqualTo(200);
		assertThat(status(pending.paymentId())).as("the answer the client got stays").isEqualTo("DECLINED");
		assertThat(this.jdbc.sql("SELECT succeeded_after_decline_at IS NOT NULL FROM payments WHERE id = ?::uuid")
			.param(pending.paymentId())
			.query(Boolean.class)
			.single()).isTrue();
		assertThat(this.meters.counter("payonce.payments.succeeded.after.decline").count() - before).isEqualTo(1);
		assertThat(ledgerEffect(eventId(succeeded))).isEqualTo("APPLIED");
	}

	/**
	 * A refund of a paid payment that Stripe made, whose answer was lost: PENDING here,
	 * its amount reserved on the payment.
	 */
	private PendingRefund pendingRefund(long amount) {
		PaymentsApi api = new PaymentsApi(this.port);
		Reply paid = api.pay("pay-" + UUID.randomUUID(), """
				{"orderId":"webhook-refund-%s","amount":1250,"currency":"EUR","paymentMethod":"pm_card_visa"}"""
			.formatted(UUID.randomUUID()));
		assertThat(paid.status()).isEqualTo(201);
		String paymentId = paid.field("id");
		String intentId = paid.field("providerReference");
		stripe.plan(intentId, StripeFault.RESET_AFTER_CHARGE, StripeFault.RESET_AFTER_CHARGE);
		String key = "refund-" + UUID.randomUUID();
		String body = "{\"amount\":" + amount + "}";
		Reply first = api.refund(paymentId, key, body);
		assertThat(first.problemType()).endsWith("/refund-outcome-unknown");
		String refundId = first.field("refundId");
		RefundEntry refund = stripe.refundsOf(intentId)
			.stream()
			.filter((entry) -> refundId.equals(entry.refundId()))
			.findFirst()
			.orElseThrow();
		return new PendingRefund(paymentId, intentId, refundId, refund,
				() -> new PaymentsApi(this.port).refund(paymentId, key, body));
	}

	/** A Refund event as Stripe sends it, with the refund in the given status. */
	private static String refundEvent(String type, RefundEntry refund, String status) {
		Map<String, Object> object = refund.json();
		object.put("status", status);
		if ("failed".equals(status)) {
			object.put("failure_reason", "expired_or_canceled_card");
		}
		return event(type, object);
	}

	/**
	 * Writes the engine record a delivery of {@code event} holds (or held) until
	 * {@code lockedUntil}, as the claim does.
	 */
	private void claimEvent(String event, String subject, Instant lockedUntil) {
		String type = JSON.readTree(event).get("type").asString();
		RequestFingerprint fingerprint = RequestFingerprint.of("POST", "/webhooks/stripe",
				Map.of("type", type, "subject", subject));
		this.jdbc.sql("""
				INSERT INTO idempotency_records
				    (scope, idempotency_key, operation, request_fingerprint, status, locked_until, attempt,
				     resource_id, created_at)
				VALUES ('webhook:stripe', ?, 'webhook_event', ?, 'IN_PROGRESS', ?, 1, ?, now())
				""")
			.params(eventId(event), fingerprint.sha256Hex(), lockedUntil.atOffset(ZoneOffset.UTC), UUID.randomUUID())
			.update();
	}

	/** A payment Stripe charged or declined, whose answer was lost: PENDING here. */
	private Pending pending(String paymentMethod) {
		String orderId = "webhook-" + UUID.randomUUID();
		stripe.plan(orderId, StripeFault.RESET_AFTER_CHARGE, StripeFault.RESET_AFTER_CHARGE);
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

	/**
	 * Settles a pending payment with a matching signed event, so that no claim of this
	 * class is left for another class's reconciler in the shared test database.
	 */
	private void settle(Pending pending) {
		String event = event("payment_intent.succeeded", succeededCopy(pending.intent()));
		assertThat(deliver(event, sign(event, Instant.now())).statusCode()).isEqualTo(200);
	}

	private static String event(String type, Intent intent) {
		return event(type, intent.json());
	}

	private static String event(String type, Map<String, Object> object) {
		Map<String, Object> event = new LinkedHashMap<>();
		event.put("id", "evt_" + UUID.randomUUID().toString().replace("-", ""));
		event.put("object", "event");
		event.put("api_version", Stripe.API_VERSION);
		event.put("created", Instant.now().getEpochSecond());
		event.put("livemode", false);
		event.put("pending_webhooks", 1);
		event.put("type", type);
		event.put("data", Map.of("object", object));
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
		return (signature != null) ? deliverWithHeaders(payload, signature) : deliverWithHeaders(payload);
	}

	/** A delivery with each signature as a {@code Stripe-Signature} header of its own. */
	private HttpResponse<String> deliverWithHeaders(String payload, String... signatures) {
		HttpRequest.Builder request = HttpRequest
			.newBuilder(URI.create("http://localhost:" + this.port + "/webhooks/stripe"))
			.header("Content-Type", "application/json; charset=utf-8")
			.POST(HttpRequest.BodyPublishers.ofString(payload));
		for (String signature : signatures) {
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

	/** Removes a claim this test wrote, so that no record of it outlives the test. */
	private void forgetEvent(String event) {
		this.jdbc.sql("DELETE FROM idempotency_records WHERE scope = 'webhook:stripe' AND idempotency_key = ?")
			.param(eventId(event))
			.update();
	}

	private static String eventId(String event) {
		return JSON.readTree(event).get("id").asString();
	}

	/**
	 * The engine's record of an event: its operation, status, attempt and stored status.
	 */
	private EventRecord eventRecord(String eventId) {
		return this.jdbc.sql("""
				SELECT operation, status, attempt, response_status FROM idempotency_records
				WHERE scope = 'webhook:stripe' AND idempotency_key = ?
				""")
			.param(eventId)
			.query((rs, row) -> new EventRecord(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4)))
			.single();
	}

	private long eventRecordCount(String eventId) {
		return this.jdbc.sql("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?")
			.param(eventId)
			.query(Long.class)
			.single();
	}

	private long ledgerRowCount(String eventId) {
		return this.jdbc.sql("SELECT count(*) FROM provider_webhook_events WHERE event_id = ?")
			.param(eventId)
			.query(Long.class)
			.single();
	}

	/** A payment of the given amount (EUR) that Stripe charged: SUCCEEDED here. */
	private Paid paid(long amount) {
		Reply paid = new PaymentsApi(this.port).pay("pay-" + UUID.randomUUID(), """
				{"orderId":"webhook-outside-%s","amount":%d,"currency":"EUR","paymentMethod":"pm_card_visa"}"""
			.formatted(UUID.randomUUID(), amount));
		assertThat(paid.status()).isEqualTo(201);
		return new Paid(paid.field("id"), paid.field("providerReference"));
	}

	private long externalRefunded(String paymentId) {
		return this.jdbc.sql("SELECT external_refunded_amount FROM payments WHERE id = ?::uuid")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

	private long providerRefundRows(String paymentId) {
		return this.jdbc.sql("SELECT count(*) FROM provider_refunds WHERE payment_id = ?::uuid")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

	private String providerRefundStatus(String reference) {
		return this.jdbc.sql("SELECT status FROM provider_refunds WHERE provider_reference = ?")
			.param(reference)
			.query(String.class)
			.single();
	}

	private String ledgerEffect(String eventId) {
		return this.jdbc.sql("SELECT effect FROM provider_webhook_events WHERE event_id = ?")
			.param(eventId)
			.query(String.class)
			.single();
	}

	@SafeVarargs
	private static <T> List<T> concat(List<T>... lists) {
		return Arrays.stream(lists).flatMap(List::stream).toList();
	}

	private record Paid(String paymentId, String intentId) {
	}

	private record EventRecord(String operation, String status, int attempt, int responseStatus) {

	}

	private record PendingRefund(String paymentId, String intentId, String refundId, RefundEntry refund,
			java.util.function.Supplier<Reply> retrier) {

		Reply retry() {
			return this.retrier.get();
		}

	}

	private record Pending(String paymentId, Intent intent, java.util.function.Supplier<Reply> retrier) {

		Reply retry() {
			return this.retrier.get();
		}

	}

}
