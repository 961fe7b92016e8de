package dev.payonce.gateway.stripe;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.payonce.OffsetClock;
import dev.payonce.TestCredentials;
import dev.payonce.gateway.stripe.StripeApiModel.StripeFault;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Stripe adapter end to end: {@code POST /payments} over real HTTP, real PostgreSQL,
 * stripe-java over real HTTP to {@link StripeApiModel}. For every fault Stripe can answer
 * with, the payment settles (a client retry with the same key, and where Stripe replays a
 * saved failure, the reconciler's lookup and a new provider key generation) and the model
 * holds at most one charged PaymentIntent for the payment.
 */
@StripeTestMode
@ExtendWith(OutputCaptureExtension.class)
class StripePaymentIntegrationTests extends StripeIntegrationFixture {

	@Autowired
	OffsetClock clock;

	@Test
	void chargesOncePerKeyAndReplaysWithoutCallingStripeAgain() {
		Order order = new Order(StripeFault.NONE);

		Reply first = order.pay();
		Reply replay = order.pay();

		assertThat(first.status()).isEqualTo(201);
		assertThat(first.field("providerReference")).startsWith("pi_");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(replay.header("Idempotent-Replayed")).contains("true");
		assertThat(stripe.chargesOf(first.field("id"))).isEqualTo(1);
		assertThat(stripe.createKeys()).containsOnlyOnce("payonce-payment-" + first.field("id"));
	}

	@Test
	void chargesIcelandicKronaInStripesHundredths() {
		// 500 krónur is amount=50000 at Stripe; amount=500 charged 5 krónur.
		Order order = new Order(StripeFault.NONE);

		Reply paid = order.pay(500, "ISK");

		assertThat(paid.status()).isEqualTo(201);
		assertThat(paid.field("amount")).isEqualTo("500");
		assertThat(stripe.intentsOf(paid.field("id"))).singleElement().satisfies((intent) -> {
			assertThat(intent.amount()).isEqualTo(50_000);
			assertThat(intent.currency()).isEqualTo("isk");
			assertThat(intent.status()).isEqualTo("succeeded");
		});
	}

	@Test
	void refusesKuwaitiDinarNotEndingInZeroBeforeStripeAndTheCorrectedRetryWithTheSameKeyCharges() {
		Order order = new Order(StripeFault.NONE);

		Reply refused = order.pay(5125, "KWD");
		long stored = countRows("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?", order.key)
				+ countRows("SELECT count(*) FROM payments WHERE order_id = ?", order.orderId);
		boolean sent = stripe.allIntents()
			.stream()
			.anyMatch((intent) -> intent.currency().equals("kwd") && intent.amount() == 5125);
		Reply corrected = order.pay(5120, "KWD");

		assertThat(refused.status()).isEqualTo(400);
		assertThat(refused.problemType()).endsWith("/amount-not-supported");
		assertThat(refused.field("multipleOf")).isEqualTo("10");
		assertThat(refused.field("currency")).isEqualTo("KWD");
		assertThat(stored).isZero();
		assertThat(sent).isFalse();
		assertThat(corrected.status()).isEqualTo(201);
		assertThat(stripe.intentsOf(corrected.field("id"))).singleElement()
			.satisfies((intent) -> assertThat(intent.amount()).isEqualTo(5120));
	}

	@Test
	void refusesAnAmountOverStripesEightDigitsBeforeStripe() {
		// A million krónur is amount=100000000 at Stripe: nine digits.
		Order order = new Order(StripeFault.NONE);

		Reply refused = order.pay(1_000_000, "ISK");

		assertThat(refused.status()).isEqualTo(400);
		assertThat(refused.problemType()).endsWith("/amount-not-supported");
		assertThat(refused.field("maximumAmount")).isEqualTo("999999");
		assertThat(countRows("SELECT count(*) FROM payments WHERE order_id = ?", order.orderId)).isZero();
	}

	@Test
	void refusesALiveApiKeyOnATestModeStripeKeyBeforeAnythingIsStored() {
		PaymentsApi admin = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN);
		Reply created = admin.send(admin.request("/admin/clients")
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"live-on-test\",\"mode\":\"live\"}")));
		String orderId = "stripe-live-" + UUID.randomUUID();

		Reply refused = new PaymentsApi(this.port, created.field("apiKey")).pay("key-" + UUID.randomUUID(), """
				{"orderId":"%s","amount":1250,"currency":"EUR"}""".formatted(orderId));

		assertThat(created.field("apiKey")).startsWith("sk_live_");
		assertThat(refused.status()).isEqualTo(403);
		assertThat(refused.problemType()).endsWith("/api-key-mode-mismatch");
		assertThat(refused.field("keyMode")).isEqualTo("live");
		assertThat(refused.field("providerMode")).isEqualTo("test");
		assertThat(countRows("SELECT count(*) FROM payments WHERE order_id = ?", orderId)).isZero();
	}

	@Test
	void declineIsFinalAndReplayed() {
		Order order = new Order("pm_card_chargeDeclinedInsufficientFunds");

		Reply first = order.pay();
		Reply replay = order.pay();

		assertThat(first.status()).isEqualTo(402);
		assertThat(first.problemType()).endsWith("/payment-declined");
		assertThat(first.field("declineCode")).isEqualTo("insufficient_funds");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(stripe.chargesOf(first.field("paymentId"))).isZero();
		assertThat(status(first.field("paymentId"))).isEqualTo("DECLINED");
	}

	@Test
	void rateLimitedChargeIsNotAttemptedAndTheRetryCharges() {
		assertSettlesWithOneCharge(new Order(StripeFault.RATE_LIMITED), "/payment-provider-unavailable", 1);
	}

	@Test
	void keyInUseIsAnUnknownOutcomeThatPromisesNothingAndTheRetryCharges() {
		Order order = new Order(StripeFault.KEY_IN_USE);

		Reply first = order.pay();

		assertThat(first.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(first.field("detail")).doesNotContainIgnoringCase("nothing was charged")
			.contains("same Idempotency-Key");
		assertSettlesWithOneCharge(order, first);
	}

	@Test
	void amountStripeRefusesForGoodIsAStoredDeclineReplayedWithoutANewKeyGeneration() {
		Order order = new Order(StripeFault.NONE).amount(10);

		Reply first = order.pay();
		String paymentId = first.field("paymentId");
		this.reconciler.reconcile();
		Reply retry = order.pay();

		assertThat(first.status()).isEqualTo(402);
		assertThat(first.problemType()).endsWith("/payment-declined");
		assertThat(first.field("declineCode")).isEqualTo("amount_too_small");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(retry.header("Idempotent-Replayed")).contains("true");
		assertThat(status(paymentId)).isEqualTo("DECLINED");
		assertThat(generation(paymentId)).isEqualTo(1);
		assertThat(stripe.createKeys()).containsOnlyOnce("payonce-payment-" + paymentId);
		assertThat(stripe.intentsOf(paymentId)).isEmpty();
	}

	@Test
	void paymentMethodStripeDoesNotKnowIsDeclinedNotRetriedForever() {
		Order order = new Order("card_not_a_payment_method");

		Reply settled = retryUntilFinal(order::pay);
		Reply replay = order.pay();

		assertThat(settled.status()).isEqualTo(402);
		assertThat(settled.field("declineCode")).isEqualTo("resource_missing");
		assertThat(replay.body()).isEqualTo(settled.body());
		assertThat(status(settled.field("paymentId"))).isEqualTo("DECLINED");
		assertThat(stripe.intentsOf(settled.field("paymentId"))).isEmpty();
	}

	@Test
	void resetBeforeStripeReadTheRequestIsUnknownAndTheRetryCharges() {
		// Twice: the JDK's HTTP client re-sends a POST once by itself after a reset.
		assertSettlesWithOneCharge(new Order(StripeFault.RESET_BEFORE, StripeFault.RESET_BEFORE),
				"/payment-outcome-unknown", 1);
	}

	@Test
	void timeoutAfterTheChargeWasRecordedIsUnknownAndTheRetryGetsTheSameCharge() {
		assertSettlesWithOneCharge(new Order(StripeFault.TIMEOUT_AFTER_CHARGE), "/payment-outcome-unknown", 1);
	}

	@Test
	void connectionResetAfterTheChargeIsUnknownAndTheRetryGetsTheSameCharge() {
		assertSettlesWithOneCharge(new Order(StripeFault.RESET_AFTER_CHARGE, StripeFault.RESET_AFTER_CHARGE),
				"/payment-outcome-unknown", 1);
	}

	@Test
	void httpClientsOwnResendAfterAResetCarriesTheSameProviderKey() {
		Order order = new Order(StripeFault.RESET_AFTER_CHARGE);

		Reply first = order.pay();

		assertThat(first.status()).isEqualTo(201);
		assertThat(stripe.createKeys()).filteredOn(("payonce-payment-" + first.field("id"))::equals).hasSize(2);
		assertThat(stripe.chargesOf(first.field("id"))).isEqualTo(1);
	}

	@Test
	void savedServerErrorIsReplayedUntilALookupProvesNoChargeThenANewKeyGenerationCharges() {
		Order order = new Order(StripeFault.SERVER_ERROR_SAVED);

		Reply first = order.pay();
		String paymentId = first.field("paymentId");
		Reply replayedFailure = order.pay();
		reconcileUntil(() -> generation(paymentId) == 2);
		Reply settled = order.pay();

		assertThat(first.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(replayedFailure.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(settled.status()).isEqualTo(201);
		assertThat(stripe.chargesOf(paymentId)).isEqualTo(1);
		assertThat(stripe.createKeys()).containsSubsequence("payonce-payment-" + paymentId,
				"payonce-payment-" + paymentId, "payonce-payment-" + paymentId + "-g2");
	}

	@Test
	void savedServerErrorSettlesUnderANewKeyGenerationByClientRetriesAloneHoweverOftenTheyCome() {
		Order order = new Order(StripeFault.SERVER_ERROR_SAVED);

		Reply first = order.pay();
		String paymentId = first.field("paymentId");
		// Retries every 100 ms, six times within the search settle time: the record is
		// never quiet, and the reconciler is off.
		Reply settled = retryUntilFinal(order::pay);

		String key = "payonce-payment-" + paymentId;
		assertThat(first.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(settled.status()).isEqualTo(201);
		assertThat(stripe.chargesOf(paymentId)).isEqualTo(1);
		assertThat(generation(paymentId)).isEqualTo(2);
		assertThat(stripe.createKeys()).as("the first answer, its replay, then the next generation only")
			.filteredOn((sent) -> sent.startsWith(key))
			.containsExactly(key, key, key + "-g2");
		assertThat(stripe.searchedPaymentIds()).contains(paymentId);
	}

	@Test
	void serverErrorAfterTheChargeSettlesByClientRetriesAloneOnceSearchCaughtUpAndKeepsItsKey() {
		Order order = new Order(StripeFault.SERVER_ERROR_AFTER_CHARGE);

		Reply first = order.pay();
		String paymentId = first.field("paymentId");
		Reply settled = retryUntilFinal(order::pay);

		assertThat(first.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(settled.status()).isEqualTo(201);
		assertThat(settled.field("providerReference")).isEqualTo(stripe.intentsOf(paymentId).get(0).id());
		assertThat(generation(paymentId)).isEqualTo(1);
		assertThat(stripe.chargesOf(paymentId)).isEqualTo(1);
	}

	@Test
	void serverErrorNamingThePaymentIntentKeepsItsIdAndTheRetryRetrievesItWithoutSearching() {
		Order order = new Order(StripeFault.SERVER_ERROR_NAMING_INTENT);

		Reply first = order.pay();
		String paymentId = first.field("paymentId");
		String intentId = stripe.intentsOf(paymentId).get(0).id();
		String keptBeforeTheRetry = providerReference(paymentId);
		Reply retry = order.pay();

		assertThat(first.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(keptBeforeTheRetry).isEqualTo(intentId);
		assertThat(retry.status()).as("no wait for the search lag: read by id").isEqualTo(201);
		assertThat(retry.field("providerReference")).isEqualTo(intentId);
		assertThat(stripe.retrievedIntents()).contains(intentId);
		assertThat(stripe.searchedPaymentIds()).doesNotContain(paymentId);
		assertThat(stripe.createKeys()).containsOnlyOnce("payonce-payment-" + paymentId);
		assertThat(stripe.chargesOf(paymentId)).isEqualTo(1);
	}

	@Test
	void processingPaymentIntentIsUnknownUntilStripeCompletesItAndIsThenReadByIdNotChargedAgain() {
		Order order = new Order(StripeFault.PROCESSING);

		Reply first = order.pay();
		String paymentId = first.field("paymentId");
		String intentId = stripe.intentsOf(paymentId).get(0).id();
		Reply whileProcessing = order.pay();
		stripe.completeIntent(intentId, "succeeded");
		Reply settled = order.pay();

		assertThat(first.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(whileProcessing.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(settled.status()).isEqualTo(201);
		assertThat(settled.field("providerReference")).isEqualTo(intentId);
		assertThat(stripe.createKeys()).containsOnlyOnce("payonce-payment-" + paymentId);
		assertThat(stripe.searchedPaymentIds()).doesNotContain(paymentId);
	}

	@Test
	void processingPaymentIntentIsSettledByTheReconcilerReadingItById() {
		Order order = new Order(StripeFault.PROCESSING);

		Reply first = order.pay();
		String paymentId = first.field("paymentId");
		String intentId = stripe.intentsOf(paymentId).get(0).id();
		stripe.completeIntent(intentId, "requires_payment_method");
		reconcileUntil(() -> "DECLINED".equals(status(paymentId)));

		assertThat(first.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(providerReference(paymentId)).isEqualTo(intentId);
		assertThat(generation(paymentId)).isEqualTo(1);
		assertThat(stripe.searchedPaymentIds()).doesNotContain(paymentId);
	}

	@Test
	void serverErrorAfterTheChargeIsFoundByLookupOnceSearchCaughtUpAndKeepsItsKey() {
		Order order = new Order(StripeFault.SERVER_ERROR_AFTER_CHARGE);

		Reply first = order.pay();
		String paymentId = first.field("paymentId");
		int takenOverAtOnce = this.reconciler.reconcile().takenOver();
		reconcileUntil(() -> "SUCCEEDED".equals(status(paymentId)));
		Reply retry = order.pay();

		assertThat(first.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(takenOverAtOnce).as("the record is left alone for the search settle time").isZero();
		assertThat(retry.status()).isEqualTo(201);
		assertThat(retry.header("Idempotent-Replayed")).contains("true");
		assertThat(retry.field("providerReference")).isEqualTo(stripe.intentsOf(paymentId).get(0).id());
		assertThat(generation(paymentId)).isEqualTo(1);
		assertThat(stripe.chargesOf(paymentId)).isEqualTo(1);
	}

	@Test
	void parameterMismatchIsLoggedAsABugAndSettlesUnderANewKeyGeneration(CapturedOutput output) {
		Order order = new Order(StripeFault.PARAMETER_MISMATCH);

		Reply first = order.pay();
		String paymentId = first.field("paymentId");
		reconcileUntil(() -> generation(paymentId) == 2);
		Reply settled = order.pay();

		assertThat(first.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(output.getAll()).contains("idempotency_error").doesNotContain(order.key);
		assertThat(settled.status()).isEqualTo(201);
		assertThat(stripe.chargesOf(paymentId)).isEqualTo(1);
	}

	@Test
	void paymentOlderThanTheGiveUpWindowIsNeverChargedAgainAndTheReconcilerSettlesIt() {
		Order order = new Order(StripeFault.RATE_LIMITED);
		Reply first = order.pay();
		String paymentId = first.field("paymentId");
		int createCalls = stripe.createKeys().size();

		this.clock.advance(Duration.ofMinutes(16), this.jdbc);
		Reply late = order.pay();
		reconcileUntil(() -> "FAILED".equals(status(paymentId)));
		Reply settled = order.pay();

		assertThat(first.problemType()).endsWith("/payment-provider-unavailable");
		assertThat(late.status()).isEqualTo(503);
		assertThat(late.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(stripe.createKeys()).as("no charge sent past the give-up window").hasSize(createCalls);
		assertThat(settled.status()).isEqualTo(402);
		assertThat(settled.problemType()).endsWith("/payment-failed");
		assertThat(stripe.intentsOf(paymentId)).isEmpty();
	}

	private void assertSettlesWithOneCharge(Order order, Reply first) {
		String paymentId = first.field("paymentId");

		Reply retry = order.pay();

		assertThat(first.status()).isEqualTo(503);
		assertThat(retry.status()).isEqualTo(201);
		assertThat(retry.field("id")).isEqualTo(paymentId);
		assertThat(stripe.chargesOf(paymentId)).isEqualTo(1);
	}

	private void assertSettlesWithOneCharge(Order order, String firstProblem, int retries) {
		Reply first = order.pay();
		String paymentId = first.field("paymentId");
		Reply last = first;
		for (int retry = 0; retry < retries; retry++) {
			last = order.pay();
		}

		assertThat(first.status()).isEqualTo(503);
		assertThat(first.problemType()).endsWith(firstProblem);
		assertThat(last.status()).isEqualTo(201);
		assertThat(last.field("id")).isEqualTo(paymentId);
		assertThat(status(paymentId)).isEqualTo("SUCCEEDED");
		assertThat(stripe.chargesOf(paymentId)).isEqualTo(1);
		assertThat(last.field("providerReference")).isEqualTo(stripe.intentsOf(paymentId).get(0).id());
	}

	private String providerReference(String paymentId) {
		return this.jdbc.sql("SELECT provider_reference FROM payments WHERE id = ?::uuid")
			.param(paymentId)
			.query(String.class)
			.single();
	}

	/** One order, its key and its body; faults planned on the model by its order id. */
	private long countRows(String sql, String value) {
		return this.jdbc.sql(sql).param(value).query(Long.class).single();
	}

	private final class Order {

		final String orderId = "stripe-" + UUID.randomUUID();

		final String key = "key-" + UUID.randomUUID();

		final String paymentMethod;

		long amount = 1250;

		Order(StripeFault... faults) {
			this("pm_card_visa");
			stripe.plan(this.orderId, faults);
		}

		Order(String paymentMethod) {
			this.paymentMethod = paymentMethod;
		}

		Order amount(long minorUnits) {
			this.amount = minorUnits;
			return this;
		}

		Reply pay() {
			return pay(this.amount, "EUR");
		}

		Reply pay(long amount, String currency) {
			return new PaymentsApi(StripePaymentIntegrationTests.this.port).pay(this.key, """
					{"orderId":"%s","amount":%d,"currency":"%s","paymentMethod":"%s"}""".formatted(this.orderId, amount,
					currency, this.paymentMethod));
		}

	}

}
