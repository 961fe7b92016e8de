package dev.payonce.gateway.stripe;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Currency;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.payonce.gateway.stripe.StripeApiModel.StripeFault;
import dev.payonce.payment.PaymentId;
import dev.payonce.provider.AmountLimits;
import dev.payonce.provider.ChargeRequest;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.Money;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.provider.ProviderAttempt;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The adapter alone against {@link StripeApiModel} over real HTTP (no database): two
 * requests with one key at once (the second's outcome unknown), a search that lags behind
 * the charge (a list finds it at once; only a list read to its end proves absence), a
 * saved 500 and its replay (only the replay is marked), a 500 naming its PaymentIntent
 * (retrieved by id, never searched) and a PaymentIntent still processing.
 */
class StripePaymentGatewayTests {

	private final StripeApiModel stripe = new StripeApiModel(Duration.ofMillis(300), Duration.ofSeconds(2));

	private final StripePaymentGateway gateway = new StripePaymentGateway(
			new StripeProperties("sk_test_model", "whsec_model", URI.create(this.stripe.baseUrl()),
					Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofMinutes(5), false));

	@AfterEach
	void stopStripe() {
		this.stripe.shutdown();
	}

	@Test
	void requestWhileTheKeysFirstRequestExecutesIsUnknownNotRefusedAndTheFirstChargesOnce() throws Exception {
		ChargeRequest charge = charge();
		CountDownLatch release = this.stripe.holdExecution();

		GatewayResult concurrent;
		Future<GatewayResult> first;
		try (ExecutorService thread = Executors.newSingleThreadExecutor()) {
			first = thread.submit(() -> this.gateway.charge(charge));
			assertThat(this.stripe.awaitExecuting(Duration.ofSeconds(10))).isTrue();
			concurrent = this.gateway.charge(charge);
			release.countDown();
		}
		GatewayResult retry = this.gateway.charge(charge);

		assertThat(concurrent).as("409 idempotency_key_in_use: the charge under the key may succeed")
			.isEqualTo(new GatewayResult.Unknown("stripe 409 idempotency_key_in_use"));
		assertThat(first.get()).isInstanceOf(GatewayResult.Approved.class);
		assertThat(retry).isEqualTo(first.get());
		assertThat(this.stripe.chargesOf(charge.paymentId().toString())).isEqualTo(1);
	}

	@Test
	void lookupFindsTheChargeAtOnceByListingWhileSearchLagsBehindIt() {
		ChargeRequest charge = charge();
		this.stripe.searchLag(Duration.ofMinutes(5));
		GatewayResult charged = this.gateway.charge(charge);

		GatewayResult atOnce = this.gateway.lookup(charge);

		assertThat(charged).isInstanceOf(GatewayResult.Approved.class);
		assertThat(atOnce).isEqualTo(charged);
		assertThat(this.stripe.searchedPaymentIds()).containsExactly(charge.paymentId().toString());
		assertThat(this.stripe.listCursors()).isNotEmpty();
	}

	@Test
	void lookupListsEveryPageToTheEndBeforeFindingTheChargeBehindOtherPayments() {
		ChargeRequest charge = charge();
		this.stripe.searchLag(Duration.ofMinutes(5));
		GatewayResult charged = this.gateway.charge(charge);
		this.stripe.createForeignIntents(250);

		GatewayResult found = this.gateway.lookup(charge);

		assertThat(found).isEqualTo(charged);
		assertThat(this.stripe.listCursors()).as("three pages of 100, newest first").hasSize(3);
	}

	@Test
	void lookupProvesNoChargeOnlyAfterListingEveryPageSinceThePaymentWasCreated() {
		ChargeRequest charge = charge();
		this.stripe.createForeignIntents(150);

		GatewayResult notFound = this.gateway.lookup(charge);

		assertThat(notFound).isInstanceOf(GatewayResult.NotAttempted.class);
		assertThat(this.stripe.listCursors()).hasSize(2);
	}

	@Test
	void lookupWhoseListFailsIsUnknownNeverNotFoundHoweverEmptyTheSearch() {
		ChargeRequest charge = charge();
		this.stripe.failLists(true);

		GatewayResult unknown = this.gateway.lookup(charge);

		assertThat(unknown).isInstanceOf(GatewayResult.Unknown.class);
		assertThat(this.stripe.searchedPaymentIds()).containsExactly(charge.paymentId().toString());
	}

	@Test
	void lookupListsOnlyPaymentIntentsCreatedSinceThePaymentLessTheClockSkew() {
		ChargeRequest old = charge();
		this.stripe.searchLag(Duration.ofMinutes(5));
		this.gateway.charge(old);
		ChargeRequest later = new ChargeRequest(old.paymentId(), old.providerIdempotencyKey(), old.amount(),
				old.paymentMethod(), old.orderId(), null, Instant.now().plus(StripeLookups.CLOCK_SKEW).plusSeconds(60));

		GatewayResult outsideTheWindow = this.gateway.lookup(later);

		assertThat(outsideTheWindow).as("created before the window: not listed")
			.isInstanceOf(GatewayResult.NotAttempted.class);
	}

	@Test
	void savedServerErrorIsUnknownAndOnlyItsReplayIsMarkedReplayed() {
		ChargeRequest charge = charge();
		this.stripe.plan(charge.orderId(), StripeFault.SERVER_ERROR_SAVED);

		GatewayResult first = this.gateway.charge(charge);
		GatewayResult replay = this.gateway.charge(charge);

		assertThat(first).isEqualTo(new GatewayResult.Unknown("stripe 500 ", null, false));
		assertThat(replay).isEqualTo(new GatewayResult.Unknown("stripe 500  replayed", null, true));
		assertThat(this.stripe.intentsOf(charge.paymentId().toString())).isEmpty();
	}

	@Test
	void serverErrorCarryingThePaymentIntentNamesItAndALookupRetrievesItByIdWithoutSearching() {
		ChargeRequest charge = charge();
		this.stripe.plan(charge.orderId(), StripeFault.SERVER_ERROR_NAMING_INTENT);

		GatewayResult failed = this.gateway.charge(charge);
		String intentId = this.stripe.intentsOf(charge.paymentId().toString()).get(0).id();
		GatewayResult found = this.gateway.lookup(new ChargeRequest(charge.paymentId(), charge.providerIdempotencyKey(),
				charge.amount(), charge.paymentMethod(), charge.orderId(), intentId));

		assertThat(failed).isInstanceOfSatisfying(GatewayResult.Unknown.class,
				(unknown) -> assertThat(unknown.providerReference()).isEqualTo(intentId));
		assertThat(found).isEqualTo(new GatewayResult.Approved(intentId));
		assertThat(this.stripe.retrievedIntents()).containsExactly(intentId);
		assertThat(this.stripe.searchedPaymentIds()).isEmpty();
	}

	@Test
	void processingPaymentIntentIsUnknownAndNamesItself() {
		ChargeRequest charge = charge();
		this.stripe.plan(charge.orderId(), StripeFault.PROCESSING);

		GatewayResult processing = this.gateway.charge(charge);

		String intentId = this.stripe.intentsOf(charge.paymentId().toString()).get(0).id();
		assertThat(processing).isEqualTo(new GatewayResult.Unknown("PaymentIntent processing", intentId, false));
	}

	@Test
	void paymentMethodStripeDoesNotKnowIsDeclinedForGood() {
		ChargeRequest known = charge();
		ChargeRequest unknown = new ChargeRequest(known.paymentId(), known.providerIdempotencyKey(), known.amount(),
				"card_not_a_payment_method", known.orderId(), null, known.createdAt());

		GatewayResult refused = this.gateway.charge(unknown);

		assertThat(refused).isEqualTo(new GatewayResult.Declined("none", "resource_missing"));
	}

	@Test
	void amountBelowStripesMinimumIsDeclinedForGood() {
		ChargeRequest known = charge();
		ChargeRequest tiny = new ChargeRequest(known.paymentId(), known.providerIdempotencyKey(),
				new Money(10, known.amount().currency()), known.paymentMethod(), known.orderId(), null,
				known.createdAt());

		GatewayResult refused = this.gateway.charge(tiny);

		assertThat(refused).isEqualTo(new GatewayResult.Declined("none", "amount_too_small"));
	}

	@Test
	void amountStripeCannotTakeIsDeclinedWithoutACall() {
		// Only a payment stored before Payonce refused such amounts can reach the
		// adapter.
		PaymentId paymentId = PaymentId.random();
		ChargeRequest charge = new ChargeRequest(paymentId.value(),
				ProviderAttempt.providerIdempotencyKey("payment", paymentId.value(), 1),
				new Money(5125, Currency.getInstance("KWD")), "pm_card_visa", "order-" + paymentId);

		GatewayResult result = this.gateway.charge(charge);

		assertThat(result).isEqualTo(new GatewayResult.Declined("none", StripeOutcomes.AMOUNT_NOT_SUPPORTED));
		assertThat(this.stripe.createKeys()).isEmpty();
	}

	@Test
	void statesTheSecretKeysModeAndStripesAmountLimits() {
		StripePaymentGateway live = new StripePaymentGateway(new StripeProperties("sk_live_model", "whsec_model",
				URI.create(this.stripe.baseUrl()), Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(1),
				Duration.ofMinutes(5), false));

		assertThat(this.gateway.mode()).contains(PaymentGateway.Mode.TEST);
		assertThat(live.mode()).contains(PaymentGateway.Mode.LIVE);
		assertThat(this.gateway.limitsAmounts()).isTrue();
		assertThat(this.gateway.amountLimits(Currency.getInstance("KWD"))).isEqualTo(new AmountLimits(10, 99_999_990));
	}

	private static ChargeRequest charge() {
		PaymentId paymentId = PaymentId.random();
		return new ChargeRequest(paymentId.value(),
				ProviderAttempt.providerIdempotencyKey("payment", paymentId.value(), 1),
				new Money(990, Currency.getInstance("USD")), "pm_card_visa", "order-" + paymentId, null, Instant.now());
	}

}
