package dev.payonce.gateway.stripe;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.payonce.OffsetClock;
import dev.payonce.gateway.stripe.StripeApiModel.StripeFault;
import dev.payonce.payment.ExtraChargeSweep;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The safety net (docs/design.md section 5, "Extra charges") against Stripe: a second
 * PaymentIntent of a payment, as a bug or a request Stripe executed late would leave it,
 * is reversed once (refunded in full when succeeded, canceled while not final), with an
 * ERROR and a count in {@code payonce.provider.duplicates}; the payment's own charge is
 * never touched; a second Stripe refund of one Payonce refund is reported once.
 */
@StripeTestMode
@ExtendWith(OutputCaptureExtension.class)
class StripeExtraChargeSweepIntegrationTests extends StripeIntegrationFixture {

	@Autowired
	ExtraChargeSweep sweep;

	@Autowired
	MeterRegistry meters;

	@Autowired
	OffsetClock clock;

	@BeforeEach
	void searchCaughtUp() {
		// Search caught up at once: the sweep's own lag tolerance is not under test here.
		stripe.searchLag(Duration.ZERO);
	}

	@AfterEach
	void searchLagsAgain() {
		stripe.searchLag(Duration.ofMillis(StripeTestMode.SEARCH_LAG_MILLIS));
	}

	@Test
	void secondSucceededPaymentIntentIsRefundedInFullOnceAndThePaymentsOwnChargeKept(CapturedOutput output) {
		Order order = new Order(StripeFault.SERVER_ERROR_SAVED);
		Reply settled = retryUntilFinal(order::pay);
		String paymentId = settled.field("id");
		String kept = settled.field("providerReference");
		int beforeTheExtra = this.sweep.sweep();
		double refundedBefore = duplicates("charge", "refunded");

		String extra = stripe.createIntentFor(paymentId, 1250, "succeeded");
		int found = this.sweep.sweep();
		int again = this.sweep.sweep();

		assertThat(settled.status()).isEqualTo(201);
		assertThat(beforeTheExtra).as("one charge under two key generations is no extra").isZero();
		assertThat(found).isEqualTo(1);
		assertThat(again).as("the reversal is made and counted once").isZero();
		assertThat(stripe.refundsOf(extra)).singleElement()
			.satisfies((refund) -> assertThat(refund.amount()).isEqualTo(1250));
		assertThat(stripe.refundsOf(kept)).isEmpty();
		assertThat(duplicates("charge", "refunded") - refundedBefore).isEqualTo(1);
		assertThat(output.getAll()).contains("\"level\":\"ERROR\"").contains(extra).doesNotContain(order.key);
	}

	@Test
	void paymentIntentOfAFailedPaymentIsCanceledWhileNotFinal() {
		Order order = new Order(StripeFault.RATE_LIMITED);
		String paymentId = order.pay().field("paymentId");
		this.clock.advance(Duration.ofMinutes(16));
		reconcileUntil(() -> "FAILED".equals(status(paymentId)));
		double canceledBefore = duplicates("charge", "canceled");

		String late = stripe.createIntentFor(paymentId, 1250, "processing");
		int found = this.sweep.sweep();

		assertThat(found).isEqualTo(1);
		assertThat(stripe.intentsOf(paymentId)).singleElement()
			.satisfies((intent) -> assertThat(intent.status()).isEqualTo("canceled"));
		assertThat(stripe.refundsOf(late)).isEmpty();
		assertThat(duplicates("charge", "canceled") - canceledBefore).isEqualTo(1);
	}

	@Test
	void secondStripeRefundOfOneRefundIsReportedOnce(CapturedOutput output) {
		Order order = new Order();
		Reply paid = order.pay();
		String paymentId = paid.field("id");
		String intentId = paid.field("providerReference");
		stripe.plan(intentId, StripeFault.SERVER_ERROR_SAVED);
		String refundKey = "refund-" + UUID.randomUUID();
		AtomicReference<Reply> refunded = new AtomicReference<>();
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
			refunded.set(new PaymentsApi(this.port).refund(paymentId, refundKey, "{\"amount\":300}"));
			return refunded.get().status() != 503;
		});
		String refundId = refunded.get().field("id");
		double reportedBefore = duplicates("refund", "reported");

		stripe.createRefundFor(intentId, refundId, 300);
		int found = this.sweep.sweep();
		int again = this.sweep.sweep();

		assertThat(refunded.get().status()).isEqualTo(201);
		assertThat(found).isEqualTo(1);
		assertThat(again).isZero();
		assertThat(duplicates("refund", "reported") - reportedBefore).isEqualTo(1);
		assertThat(output.getAll()).contains("Refund " + refundId + " has 2 refunds at the provider");
	}

	private double duplicates(String operation, String action) {
		return this.meters.get("payonce.provider.duplicates")
			.tag("operation", operation)
			.tag("action", action)
			.counter()
			.count();
	}

	/** One order, its key and its body; faults planned on the model by its order id. */
	private final class Order {

		final String orderId = "stripe-sweep-" + UUID.randomUUID();

		final String key = "key-" + UUID.randomUUID();

		Order(StripeFault... faults) {
			stripe.plan(this.orderId, faults);
		}

		Reply pay() {
			return new PaymentsApi(StripeExtraChargeSweepIntegrationTests.this.port).pay(this.key, """
					{"orderId":"%s","amount":1250,"currency":"EUR","paymentMethod":"pm_card_visa"}"""
				.formatted(this.orderId));
		}

	}

}
