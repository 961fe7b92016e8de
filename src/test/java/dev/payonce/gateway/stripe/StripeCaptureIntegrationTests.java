package dev.payonce.gateway.stripe;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import dev.payonce.gateway.stripe.StripeApiModel.StripeFault;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Manual capture through the Stripe adapter end to end: {@code POST /payments} with
 * {@code "capture": "manual"}, {@code POST /payments/{id}/captures} and {@code POST
 * /payments/{id}/void} over real HTTP, real PostgreSQL, stripe-java over real HTTP to
 * {@link StripeApiModel}. The account has no multicapture, so the first capture of a
 * payment is its only one at Stripe: a partial capture ends the authorization and a
 * second capture is refused before anything is sent. The model counts Stripe's captures
 * and cancels: under each fault a capture or void happens at Stripe once.
 */
@StripeTestMode
class StripeCaptureIntegrationTests extends StripeIntegrationFixture {

	@Test
	void manualPaymentIsAuthorizedByAHoldAtStripe() {
		Held held = new Held(1250, "EUR");

		Reply payment = api().get("/payments/" + held.paymentId);

		assertThat(payment.field("status")).isEqualTo("AUTHORIZED");
		assertThat(payment.field("capturableAmount")).isEqualTo("1250");
		assertThat(payment.field("authorizationExpiresAt")).isNotEmpty();
		assertThat(stripe.intent(held.intentId).status()).isEqualTo("requires_capture");
		assertThat(stripe.intent(held.intentId).captureMethod()).isEqualTo("manual");
	}

	@Test
	void holdThatStripeEndsSoonerThanSevenDaysLapsesWhenItsChargeSays() {
		// A Visa merchant-initiated hold: 4 days and 18 hours (Stripe's page).
		stripe.holdWindow(Duration.ofHours(114));
		Held held;
		try {
			held = new Held(1250, "EUR");
		}
		finally {
			stripe.holdWindow(Duration.ofDays(7));
		}

		Reply payment = api().get("/payments/" + held.paymentId);

		Instant captureBefore = Instant
			.ofEpochSecond(stripe.intent(held.intentId).createdAt().plus(Duration.ofHours(114)).getEpochSecond());
		assertThat(Instant.parse(payment.field("authorizationExpiresAt"))).isEqualTo(captureBefore);
	}

	@Test
	void captureOfAllThatIsLeftCapturesTheWholeHoldOnceAndIsReplayed() {
		Held held = new Held(1250, "EUR");

		Reply captured = held.captureAll("capture-" + UUID.randomUUID());
		Reply replay = held.captureAll(held.lastKey);

		assertThat(captured.status()).isEqualTo(201);
		assertThat(captured.field("amount")).isEqualTo("1250");
		assertThat(captured.field("providerReference")).isEqualTo("ch_" + held.intentId.substring(3));
		assertThat(replay.body()).isEqualTo(captured.body());
		assertThat(status(held.paymentId)).isEqualTo("SUCCEEDED");
		assertThat(stripe.capturesOf(held.intentId)).containsExactly(1250L);
		assertThat(stripe.createKeys()).as("the replay is Payonce's stored answer, never sent again")
			.filteredOn((key) -> key.equals("payonce-capture-" + captured.field("id")))
			.hasSize(1);
	}

	@Test
	void partialCaptureEndsTheAuthorizationAndASecondCaptureIsRefusedWithoutACall() {
		Held held = new Held(1250, "EUR");

		Reply first = held.capture("capture-" + UUID.randomUUID(), "{\"amount\":400}");
		int sent = stripe.createKeys().size();
		Reply second = held.capture("capture-" + UUID.randomUUID(), "{\"amount\":300}");
		Reply payment = api().get("/payments/" + held.paymentId);

		assertThat(first.status()).isEqualTo(201);
		assertThat(second.status()).isEqualTo(409);
		assertThat(second.problemType()).endsWith("/payment-not-capturable");
		assertThat(second.field("paymentStatus")).isEqualTo("SUCCEEDED");
		assertThat(stripe.createKeys()).as("the second capture is never sent").hasSize(sent);
		assertThat(stripe.capturesOf(held.intentId)).containsExactly(400L);
		assertThat(stripe.intent(held.intentId).amountCapturable()).as("Stripe released the rest").isZero();
		assertThat(payment.field("status")).isEqualTo("SUCCEEDED");
		assertThat(payment.field("capturedAmount")).isEqualTo("400");
		assertThat(payment.field("capturableAmount")).isEqualTo("0");
	}

	@Test
	void captureWhileAnotherIsInFlightIsRefusedWithoutACallSoStripeCapturesOnce() throws Exception {
		Held held = new Held(1250, "EUR");
		CountDownLatch release = stripe.holdExecution();

		Reply concurrent;
		Future<Reply> first;
		try (ExecutorService thread = Executors.newSingleThreadExecutor()) {
			first = thread.submit(() -> held.capture("capture-" + UUID.randomUUID(), "{\"amount\":500}"));
			assertThat(stripe.awaitExecuting(Duration.ofSeconds(10))).isTrue();
			concurrent = held.capture("capture-" + UUID.randomUUID(), "{\"amount\":500}");
			release.countDown();
		}

		assertThat(concurrent.status()).isEqualTo(409);
		assertThat(concurrent.problemType()).endsWith("/payment-not-capturable");
		assertThat(concurrent.field("paymentStatus")).isEqualTo("AUTHORIZED");
		assertThat(first.get().status()).isEqualTo(201);
		assertThat(stripe.capturesOf(held.intentId)).containsExactly(500L);
	}

	@Test
	void voidCancelsTheHoldOnceAndACaptureAfterItIsRefusedWithoutACall() {
		Held held = new Held(1250, "EUR");
		String voidKey = "void-" + UUID.randomUUID();

		Reply voided = held.voidPayment(voidKey);
		Reply replay = held.voidPayment(voidKey);
		int sent = stripe.createKeys().size();
		Reply captureAfter = held.captureAll("capture-" + UUID.randomUUID());

		assertThat(voided.status()).isEqualTo(200);
		assertThat(voided.field("providerReference")).isEqualTo(held.intentId);
		assertThat(replay.body()).isEqualTo(voided.body());
		assertThat(status(held.paymentId)).isEqualTo("VOIDED");
		assertThat(stripe.intent(held.intentId).status()).isEqualTo("canceled");
		assertThat(stripe.cancelsOf(held.intentId)).isEqualTo(1);
		assertThat(stripe.createKeys()).contains("payonce-void-" + voided.field("id"));
		assertThat(captureAfter.status()).isEqualTo(409);
		assertThat(captureAfter.problemType()).endsWith("/payment-not-capturable");
		assertThat(stripe.createKeys()).hasSize(sent);
		assertThat(stripe.capturesOf(held.intentId)).isEmpty();
	}

	@Test
	void lostCaptureAnswerIsUnknownAndTheRetryWithTheSameKeyGetsTheOneCapture() {
		Held held = new Held(1250, "EUR");
		stripe.planHold(held.intentId, StripeFault.TIMEOUT_AFTER_CHARGE);
		String key = "capture-" + UUID.randomUUID();

		Reply lost = held.capture(key, "{\"amount\":700}");
		Reply retry = held.capture(key, "{\"amount\":700}");

		assertThat(lost.status()).isEqualTo(503);
		assertThat(lost.problemType()).endsWith("/capture-outcome-unknown");
		assertThat(retry.status()).isEqualTo(201);
		assertThat(retry.field("id")).isEqualTo(lost.field("captureId"));
		assertThat(stripe.capturesOf(held.intentId)).containsExactly(700L);
		assertThat(capturedAmount(held.paymentId)).isEqualTo(700);
	}

	@Test
	void savedServerErrorAfterTheCaptureIsSettledOnceByTheReconcilersLookup() {
		Held held = new Held(1250, "EUR");
		stripe.planHold(held.intentId, StripeFault.SERVER_ERROR_AFTER_CHARGE);
		String key = "capture-" + UUID.randomUUID();

		Reply first = held.capture(key, "{\"amount\":900}");
		Reply replayedFailure = held.capture(key, "{\"amount\":900}");
		String captureId = first.field("captureId");
		reconcileUntil(() -> "SUCCEEDED".equals(captureStatus(captureId)));
		Reply settled = held.capture(key, "{\"amount\":900}");

		assertThat(first.problemType()).endsWith("/capture-outcome-unknown");
		assertThat(replayedFailure.problemType()).as("Stripe replays its saved 500 under the capture's key")
			.endsWith("/capture-outcome-unknown");
		assertThat(settled.status()).isEqualTo(201);
		assertThat(settled.field("id")).isEqualTo(captureId);
		assertThat(stripe.capturesOf(held.intentId)).containsExactly(900L);
		assertThat(capturedAmount(held.paymentId)).isEqualTo(900);
		assertThat(status(held.paymentId)).isEqualTo("SUCCEEDED");
	}

	@Test
	void savedServerErrorBeforeTheCaptureMovesToANewKeyGenerationAndCapturesOnce() {
		Held held = new Held(1250, "EUR");
		stripe.planHold(held.intentId, StripeFault.SERVER_ERROR_SAVED);
		String key = "capture-" + UUID.randomUUID();

		Reply first = held.capture(key, "{\"amount\":600}");
		String captureId = first.field("captureId");
		Reply settled = retryUntilFinal(() -> held.capture(key, "{\"amount\":600}"));

		String providerKey = "payonce-capture-" + captureId;
		assertThat(first.problemType()).endsWith("/capture-outcome-unknown");
		assertThat(settled.status()).isEqualTo(201);
		assertThat(stripe.createKeys()).filteredOn((sent) -> sent.startsWith(providerKey))
			.as("the first answer, its replay, then the next generation only")
			.containsExactly(providerKey, providerKey, providerKey + "-g2");
		assertThat(stripe.capturesOf(held.intentId)).containsExactly(600L);
	}

	@Test
	void lostVoidAnswerIsSettledOnceByTheReconcilersLookup() {
		Held held = new Held(1250, "EUR");
		stripe.planHold(held.intentId, StripeFault.TIMEOUT_AFTER_CHARGE);

		Reply lost = held.voidPayment("void-" + UUID.randomUUID());
		reconcileUntil(() -> "VOIDED".equals(status(held.paymentId)));

		assertThat(lost.status()).isEqualTo(503);
		assertThat(lost.problemType()).endsWith("/void-outcome-unknown");
		assertThat(stripe.cancelsOf(held.intentId)).isEqualTo(1);
		assertThat(voidStatus(lost.field("voidId"))).isEqualTo("SUCCEEDED");
	}

	@Test
	void capturesJapaneseYenAndIcelandicKronaInStripesUnits() {
		Held yen = new Held(1200, "JPY");
		Held krona = new Held(500, "ISK");

		Reply yenCaptured = yen.capture("capture-" + UUID.randomUUID(), "{\"amount\":700}");
		Reply kronaCaptured = krona.capture("capture-" + UUID.randomUUID(), "{\"amount\":300}");

		assertThat(yenCaptured.status()).isEqualTo(201);
		assertThat(stripe.intent(yen.intentId).amount()).isEqualTo(1200);
		assertThat(stripe.capturesOf(yen.intentId)).containsExactly(700L);
		assertThat(capturedAmount(yen.paymentId)).isEqualTo(700);
		assertThat(kronaCaptured.status()).isEqualTo(201);
		assertThat(stripe.intent(krona.intentId).amount()).as("500 krónur").isEqualTo(50_000);
		assertThat(stripe.capturesOf(krona.intentId)).as("300 krónur").containsExactly(30_000L);
		assertThat(capturedAmount(krona.paymentId)).isEqualTo(300);
	}

	@Test
	void chargeCapturedEventSettlesAPendingCaptureOnceAndTheRetryReplaysIt() {
		Held held = new Held(1250, "EUR");
		stripe.planHold(held.intentId, StripeFault.TIMEOUT_AFTER_CHARGE);
		String key = "capture-" + UUID.randomUUID();
		Reply lost = held.capture(key, "{\"amount\":800}");
		String event = SignedEvents.event("charge.captured", stripe.chargeOf(held.intentId), false);

		int delivered = events().deliver(event);
		int again = events().deliver(event);
		Reply retry = held.capture(key, "{\"amount\":800}");

		assertThat(lost.problemType()).endsWith("/capture-outcome-unknown");
		assertThat(delivered).isEqualTo(200);
		assertThat(again).isEqualTo(200);
		assertThat(captureStatus(lost.field("captureId"))).isEqualTo("SUCCEEDED");
		assertThat(ledgerEffect(SignedEvents.id(event))).isEqualTo("APPLIED");
		assertThat(retry.status()).isEqualTo(201);
		assertThat(retry.header("Idempotent-Replayed")).contains("true");
		assertThat(retry.field("providerReference")).isEqualTo("ch_" + held.intentId.substring(3));
		assertThat(stripe.capturesOf(held.intentId)).containsExactly(800L);
		assertThat(capturedAmount(held.paymentId)).isEqualTo(800);
		assertThat(status(held.paymentId)).isEqualTo("SUCCEEDED");
	}

	@Test
	void paymentIntentCanceledEventSettlesAPendingVoidOnce() {
		Held held = new Held(1250, "EUR");
		stripe.planHold(held.intentId, StripeFault.TIMEOUT_AFTER_CHARGE);
		String key = "void-" + UUID.randomUUID();
		Reply lost = held.voidPayment(key);
		String event = SignedEvents.event("payment_intent.canceled", stripe.intent(held.intentId).json(), false);

		int delivered = events().deliver(event);
		Reply retry = held.voidPayment(key);

		assertThat(lost.problemType()).endsWith("/void-outcome-unknown");
		assertThat(delivered).isEqualTo(200);
		assertThat(status(held.paymentId)).isEqualTo("VOIDED");
		assertThat(voidStatus(lost.field("voidId"))).isEqualTo("SUCCEEDED");
		assertThat(ledgerEffect(SignedEvents.id(event))).isEqualTo("APPLIED");
		assertThat(retry.status()).isEqualTo(200);
		assertThat(retry.field("providerReference")).isEqualTo(held.intentId);
		assertThat(stripe.cancelsOf(held.intentId)).isEqualTo(1);
	}

	@Test
	void eventOfAHoldStillCapturableSettlesNothingAndIsRecordedIgnored() {
		Held held = new Held(1250, "EUR");
		stripe.planHold(held.intentId, StripeFault.SERVER_ERROR_SAVED);
		String key = "capture-" + UUID.randomUUID();
		Reply unknown = held.capture(key, "{\"amount\":500}");
		String event = SignedEvents.event("payment_intent.amount_capturable_updated",
				stripe.intent(held.intentId).json(), false);

		int delivered = events().deliver(event);
		String captureAfterEvent = captureStatus(unknown.field("captureId"));
		String paymentAfterEvent = status(held.paymentId);

		assertThat(unknown.problemType()).endsWith("/capture-outcome-unknown");
		assertThat(delivered).isEqualTo(200);
		assertThat(captureAfterEvent).as("Stripe captured nothing: no outcome yet").isEqualTo("PENDING");
		assertThat(ledgerEffect(SignedEvents.id(event))).isEqualTo("IGNORED");
		assertThat(paymentAfterEvent).isEqualTo("AUTHORIZED");
		// Nothing is left pending for the reconciler the classes of this context share.
		assertThat(retryUntilFinal(() -> held.capture(key, "{\"amount\":500}")).status()).isEqualTo(201);
	}

	private SignedEvents events() {
		return new SignedEvents(this.port, StripeTestMode.SIGNING_SECRET);
	}

	private String ledgerEffect(String eventId) {
		return this.jdbc.sql("SELECT effect FROM provider_webhook_events WHERE event_id = ?")
			.param(eventId)
			.query(String.class)
			.single();
	}

	private long capturedAmount(String paymentId) {
		return this.jdbc.sql("SELECT captured_amount FROM payments WHERE id = ?::uuid")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

	private String captureStatus(String captureId) {
		return this.jdbc.sql("SELECT status FROM captures WHERE id = ?::uuid")
			.param(captureId)
			.query(String.class)
			.single();
	}

	private String voidStatus(String voidId) {
		return this.jdbc.sql("SELECT status FROM voids WHERE id = ?::uuid").param(voidId).query(String.class).single();
	}

	private PaymentsApi api() {
		return new PaymentsApi(this.port);
	}

	/** A manual payment authorized through the model: a PaymentIntent on hold. */
	private final class Held {

		final String paymentId;

		final String intentId;

		String lastKey = "";

		Held(long amount, String currency) {
			String key = "hold-" + UUID.randomUUID();
			String body = """
					{"orderId":"stripe-hold-%s","amount":%d,"currency":"%s","paymentMethod":"pm_card_visa",\
					"capture":"manual"}""".formatted(UUID.randomUUID(), amount, currency);
			// The first call of a fresh context may outlast the 1 s read timeout: the
			// retry with the key settles it.
			Reply held = retryUntilFinal(() -> api().pay(key, body));
			assertThat(held.status()).isEqualTo(201);
			assertThat(held.field("status")).isEqualTo("AUTHORIZED");
			this.paymentId = held.field("id");
			this.intentId = held.field("providerReference");
		}

		Reply capture(String key, String json) {
			this.lastKey = key;
			return api().send(api().request("/payments/" + this.paymentId + "/captures")
				.header("Idempotency-Key", key)
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(json)));
		}

		Reply captureAll(String key) {
			this.lastKey = key;
			return api().send(api().request("/payments/" + this.paymentId + "/captures")
				.header("Idempotency-Key", key)
				.POST(HttpRequest.BodyPublishers.noBody()));
		}

		Reply voidPayment(String key) {
			return api().send(api().request("/payments/" + this.paymentId + "/void")
				.header("Idempotency-Key", key)
				.POST(HttpRequest.BodyPublishers.noBody()));
		}

	}

}
