package dev.payonce.gateway.stripe;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;

import dev.payonce.gateway.stripe.StripeApiModel.StripeFault;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Refunds through the Stripe adapter end to end: {@code POST /payments/{id}/refunds} over
 * real HTTP, real PostgreSQL, stripe-java over real HTTP to {@link StripeApiModel}'s
 * Refunds API. Under each fault the refund settles once: the model holds exactly one
 * refund of the PaymentIntent, whether a client retry with the same key (Stripe replays
 * the saved refund) or the reconciler's lookup (a list of the PaymentIntent's refunds)
 * settles it.
 */
@StripeTestMode
class StripeRefundIntegrationTests extends StripeIntegrationFixture {

	@Test
	void refundsOncePerKeyWithItsOwnProviderKeyAndReason() {
		Paid paid = new Paid();

		Reply first = paid.refund("{\"amount\":400,\"reason\":\"requested_by_customer\"}");
		Reply replay = paid.refund("{\"amount\":400,\"reason\":\"requested_by_customer\"}");

		assertThat(first.status()).isEqualTo(201);
		assertThat(first.field("providerReference")).startsWith("re_");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(stripe.refundsOf(paid.intentId)).singleElement().satisfies((refund) -> {
			assertThat(refund.refundId()).isEqualTo(first.field("id"));
			assertThat(refund.amount()).isEqualTo(400);
			assertThat(refund.reason()).isEqualTo("requested_by_customer");
		});
	}

	@Test
	void refundsIcelandicKronaInStripesHundredths() {
		// A refund of 100 krónur is amount=10000 at Stripe; amount=100 refunded 1 króna.
		Paid paid = new Paid(500, "ISK");

		Reply refunded = paid.refund("{\"amount\":100}");

		assertThat(refunded.status()).isEqualTo(201);
		assertThat(stripe.refundsOf(paid.intentId)).singleElement().satisfies((refund) -> {
			assertThat(refund.amount()).isEqualTo(10_000);
			assertThat(refund.currency()).isEqualTo("isk");
		});
		assertThat(refundedAmount(paid.paymentId)).isEqualTo(100);
	}

	@Test
	void refusesAKuwaitiDinarRefundNotEndingInZeroBeforeStripeAndTheCorrectedRetryWithTheSameKeyRefunds() {
		Paid paid = new Paid(5120, "KWD");

		Reply refused = paid.refund("{\"amount\":125}");
		long stored = this.jdbc.sql("SELECT count(*) FROM refunds WHERE payment_id = ?::uuid")
			.param(paid.paymentId)
			.query(Long.class)
			.single()
				+ this.jdbc.sql("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?")
					.param(paid.refundKey)
					.query(Long.class)
					.single();
		int sent = stripe.refundsOf(paid.intentId).size();
		Reply corrected = paid.refund("{\"amount\":120}");

		assertThat(refused.status()).isEqualTo(400);
		assertThat(refused.problemType()).endsWith("/amount-not-supported");
		assertThat(refused.field("multipleOf")).isEqualTo("10");
		assertThat(stored).isZero();
		assertThat(sent).isZero();
		assertThat(corrected.status()).isEqualTo(201);
		assertThat(stripe.refundsOf(paid.intentId)).singleElement()
			.satisfies((refund) -> assertThat(refund.amount()).isEqualTo(120));
		assertThat(refundedAmount(paid.paymentId)).isEqualTo(120);
	}

	@Test
	void timeoutAfterStripeRefundedIsUnknownAndTheRetryGetsTheSameRefund() {
		Paid paid = new Paid();
		stripe.plan(paid.intentId, StripeFault.TIMEOUT_AFTER_CHARGE);

		Reply first = paid.refund("{\"amount\":1250}");
		Reply retry = paid.refund("{\"amount\":1250}");

		assertThat(first.status()).isEqualTo(503);
		assertThat(first.problemType()).endsWith("/refund-outcome-unknown");
		assertThat(retry.status()).isEqualTo(201);
		assertThat(retry.field("id")).isEqualTo(first.field("refundId"));
		assertThat(stripe.refundsOf(paid.intentId)).singleElement()
			.satisfies((refund) -> assertThat(retry.field("providerReference")).isEqualTo(refund.id()));
		assertThat(refundedAmount(paid.paymentId)).isEqualTo(1250);
	}

	@Test
	void savedServerErrorAfterTheRefundIsReplayedUntilTheReconcilersLookupSettlesItOnce() {
		Paid paid = new Paid();
		stripe.plan(paid.intentId, StripeFault.SERVER_ERROR_AFTER_CHARGE);

		Reply first = paid.refund("{\"amount\":500}");
		Reply replayedFailure = paid.refund("{\"amount\":500}");
		String refundId = first.field("refundId");
		reconcileUntil(() -> "SUCCEEDED".equals(refundStatus(refundId)));
		Reply settled = paid.refund("{\"amount\":500}");

		assertThat(first.problemType()).endsWith("/refund-outcome-unknown");
		assertThat(replayedFailure.problemType()).as("Stripe replays its saved 500 under the refund's key")
			.endsWith("/refund-outcome-unknown");
		assertThat(settled.status()).isEqualTo(201);
		assertThat(settled.header("Idempotent-Replayed")).contains("true");
		assertThat(stripe.refundsOf(paid.intentId)).singleElement()
			.satisfies((refund) -> assertThat(settled.field("providerReference")).isEqualTo(refund.id()));
		assertThat(refundedAmount(paid.paymentId)).isEqualTo(500);
	}

	@Test
	void savedServerErrorBeforeTheRefundSettlesUnderANewKeyGenerationByClientRetriesAlone() {
		Paid paid = new Paid();
		stripe.plan(paid.intentId, StripeFault.SERVER_ERROR_SAVED);

		Reply first = paid.refund("{\"amount\":700}");
		String refundId = first.field("refundId");
		Reply settled = retryUntilFinal(() -> paid.refund("{\"amount\":700}"));

		String key = "payonce-refund-" + refundId;
		assertThat(first.problemType()).endsWith("/refund-outcome-unknown");
		assertThat(settled.status()).isEqualTo(201);
		assertThat(stripe.refundsOf(paid.intentId)).singleElement().satisfies((refund) -> {
			assertThat(settled.field("providerReference")).isEqualTo(refund.id());
			assertThat(refund.refundId()).isEqualTo(refundId);
		});
		assertThat(refundGeneration(refundId)).isEqualTo(2);
		assertThat(stripe.createKeys()).as("the first answer, its replay, then the next generation only")
			.filteredOn((sent) -> sent.startsWith(key))
			.containsExactly(key, key, key + "-g2");
		assertThat(refundedAmount(paid.paymentId)).isEqualTo(700);
	}

	@Test
	void savedServerErrorBeforeTheRefundMovesToANewKeyGenerationByTheReconcilerOnceReplayed() {
		Paid paid = new Paid();
		stripe.plan(paid.intentId, StripeFault.SERVER_ERROR_SAVED);

		Reply first = paid.refund("{\"amount\":300}");
		String refundId = first.field("refundId");
		int generationBeforeAReplay = reconcileOnce(refundId);
		Reply replayedFailure = paid.refund("{\"amount\":300}");
		reconcileUntil(() -> refundGeneration(refundId) == 2);
		Reply settled = paid.refund("{\"amount\":300}");

		assertThat(generationBeforeAReplay).as("a 500 not yet replayed proves nothing").isEqualTo(1);
		assertThat(replayedFailure.problemType()).endsWith("/refund-outcome-unknown");
		assertThat(settled.status()).isEqualTo(201);
		assertThat(stripe.refundsOf(paid.intentId)).hasSize(1);
		assertThat(refundedAmount(paid.paymentId)).isEqualTo(300);
	}

	@Test
	void rateLimitedRefundIsNotAttemptedAndTheRetryRefundsOnce() {
		Paid paid = new Paid();
		stripe.plan(paid.intentId, StripeFault.RATE_LIMITED);

		Reply first = paid.refund("{\"amount\":300}");
		Reply retry = paid.refund("{\"amount\":300}");

		assertThat(first.status()).isEqualTo(503);
		assertThat(retry.status()).isEqualTo(201);
		assertThat(stripe.refundsOf(paid.intentId)).hasSize(1);
	}

	@Test
	void keyInUseRefundIsAnUnknownOutcomeThatPromisesNothingAndTheRetryRefundsOnce() {
		Paid paid = new Paid();
		stripe.plan(paid.intentId, StripeFault.KEY_IN_USE);

		Reply first = paid.refund("{\"amount\":300}");
		Reply retry = paid.refund("{\"amount\":300}");

		assertThat(first.status()).isEqualTo(503);
		assertThat(first.problemType()).endsWith("/refund-outcome-unknown");
		assertThat(first.field("detail")).doesNotContainIgnoringCase("nothing was refunded");
		assertThat(retry.status()).isEqualTo(201);
		assertThat(stripe.refundsOf(paid.intentId)).hasSize(1);
	}

	@Test
	void refundAboveWhatIsLeftAtStripeIsDeclinedAtOnceAndItsReservationGivenBack() {
		Paid paid = new Paid();
		stripe.refundOutsidePayonce(paid.intentId, 500);

		Reply refused = paid.refund("{\"amount\":1250}");
		Reply replay = paid.refund("{\"amount\":1250}");
		Reply rest = paid.refundWithNewKey("{\"amount\":750}");

		assertThat(refused.status()).isEqualTo(402);
		assertThat(refused.problemType()).endsWith("/refund-declined");
		assertThat(refused.field("declineCode")).isEqualTo("amount_too_large");
		assertThat(replay.body()).isEqualTo(refused.body());
		assertThat(refundStatus(refused.field("refundId"))).isEqualTo("DECLINED");
		assertThat(rest.status()).as("nothing stays reserved for the give-up window").isEqualTo(201);
		assertThat(refundedAmount(paid.paymentId)).isEqualTo(750);
		assertThat(refundGeneration(refused.field("refundId"))).isEqualTo(1);
	}

	@Test
	void refundOfADisputedChargeIsDeclinedForGoodAndReplayed() {
		Paid paid = new Paid();
		stripe.dispute(paid.intentId);

		Reply refused = paid.refund("{\"amount\":300}");
		this.reconciler.reconcile();
		Reply replay = paid.refund("{\"amount\":300}");

		assertThat(refused.status()).isEqualTo(402);
		assertThat(refused.field("declineCode")).isEqualTo("charge_disputed");
		assertThat(replay.body()).isEqualTo(refused.body());
		assertThat(refundStatus(refused.field("refundId"))).isEqualTo("DECLINED");
		assertThat(stripe.refundsOf(paid.intentId)).isEmpty();
		assertThat(this.jdbc.sql("SELECT refunds_in_flight FROM payments WHERE id = ?::uuid")
			.param(paid.paymentId)
			.query(Long.class)
			.single()).isZero();
	}

	/** One reconciler run; the refund's provider key generation after it. */
	private int reconcileOnce(String refundId) {
		this.reconciler.reconcile();
		return refundGeneration(refundId);
	}

	private int refundGeneration(String refundId) {
		return this.jdbc.sql("SELECT provider_key_generation FROM refunds WHERE id = ?::uuid")
			.param(refundId)
			.query(Integer.class)
			.single();
	}

	/** A payment charged through the model, and one refund key for it. */
	private final class Paid {

		final String paymentId;

		final String intentId;

		final String refundKey = "refund-" + UUID.randomUUID();

		Paid() {
			this(1250, "EUR");
		}

		Paid(long amount, String currency) {
			Reply paid = api().pay("pay-" + UUID.randomUUID(), """
					{"orderId":"stripe-refund-%s","amount":%d,"currency":"%s","paymentMethod":"pm_card_visa"}"""
				.formatted(UUID.randomUUID(), amount, currency));
			assertThat(paid.status()).isEqualTo(201);
			this.paymentId = paid.field("id");
			this.intentId = paid.field("providerReference");
		}

		Reply refund(String json) {
			return api().refund(this.paymentId, this.refundKey, json);
		}

		Reply refundWithNewKey(String json) {
			return api().refund(this.paymentId, "refund-" + UUID.randomUUID(), json);
		}

		private PaymentsApi api() {
			return new PaymentsApi(StripeRefundIntegrationTests.this.port);
		}

	}

}
