package dev.payonce.gateway.stripe;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.payonce.OffsetClock;
import dev.payonce.gateway.stripe.StripeApiModel.StripeFault;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Search that lags behind Stripe's writes longer than every window Payonce waits (five
 * minutes here, against a 600 ms settle time and a 15 minute give-up window reached by
 * moving the clock): a new provider key generation is used only on the proof of a list of
 * PaymentIntents read to its end (docs/design.md section 5), so a charge Stripe made is
 * found and never made twice, and a payment without that proof stays unknown.
 */
@StripeTestMode
class StripeSearchLagIntegrationTests extends StripeIntegrationFixture {

	@Autowired
	OffsetClock clock;

	@BeforeEach
	void searchLagsFiveMinutes() {
		// Search catches up only after five minutes: never within a test's own time.
		stripe.searchLag(Duration.ofMinutes(5));
	}

	@AfterEach
	void listsWorkAgain() {
		stripe.failLists(false);
		stripe.searchLag(Duration.ofMillis(StripeTestMode.SEARCH_LAG_MILLIS));
	}

	@Test
	void chargeWhoseAnswerTimedOutIsFoundByTheReconcilersListAndTheLateRetryGetsItNotASecondCharge() {
		Order order = new Order(StripeFault.TIMEOUT_AFTER_CHARGE);

		Reply first = order.pay();
		String paymentId = first.field("paymentId");
		reconcileUntil(() -> !"PENDING".equals(status(paymentId)));
		Reply retry = order.pay();

		assertThat(first.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(stripe.searchedPaymentIds()).as("search was asked and found nothing yet").contains(paymentId);
		assertThat(status(paymentId)).isEqualTo("SUCCEEDED");
		assertThat(retry.status()).isEqualTo(201);
		assertThat(stripe.intentsOf(paymentId)).singleElement()
			.satisfies((intent) -> assertThat(retry.field("providerReference")).isEqualTo(intent.id()));
		assertThat(generation(paymentId)).isEqualTo(1);
		assertThat(stripe.createKeys()).doesNotContain(order.providerKey(paymentId) + "-g2");
	}

	@Test
	void chargeAnsweredWithASavedServerErrorIsFoundByListingHoweverOftenTheClientRetries() {
		Order order = new Order(StripeFault.SERVER_ERROR_AFTER_CHARGE);

		Reply first = order.pay();
		String paymentId = first.field("paymentId");
		Reply settled = retryUntilFinal(order::pay);

		String key = order.providerKey(paymentId);
		assertThat(first.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(settled.status()).isEqualTo(201);
		assertThat(stripe.intentsOf(paymentId)).singleElement()
			.satisfies((intent) -> assertThat(settled.field("providerReference")).isEqualTo(intent.id()));
		assertThat(generation(paymentId)).isEqualTo(1);
		assertThat(stripe.createKeys()).as("the first answer and its replay; no next generation")
			.filteredOn((sent) -> sent.startsWith(key))
			.containsExactly(key, key);
	}

	@Test
	void savedServerErrorWithoutAChargeMovesToTheNextGenerationOnTheListsProofWhileSearchLags() {
		Order order = new Order(StripeFault.SERVER_ERROR_SAVED);

		Reply first = order.pay();
		String paymentId = first.field("paymentId");
		Reply settled = retryUntilFinal(order::pay);

		String key = order.providerKey(paymentId);
		assertThat(first.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(settled.status()).isEqualTo(201);
		assertThat(stripe.chargesOf(paymentId)).isEqualTo(1);
		assertThat(generation(paymentId)).isEqualTo(2);
		assertThat(stripe.createKeys()).filteredOn((sent) -> sent.startsWith(key))
			.containsExactly(key, key, key + "-g2");
	}

	@Test
	void paymentWithoutAProofStaysUnknownPastTheGiveUpWindowAndFailsOnlyOnceAListProvesNoCharge() {
		Order order = new Order(StripeFault.SERVER_ERROR_SAVED);
		Reply first = order.pay();
		String paymentId = first.field("paymentId");
		Reply replayed = order.pay();
		stripe.failLists(true);

		Reply withoutProof = retryFor(order, Duration.ofSeconds(2));
		this.clock.advance(Duration.ofMinutes(16));
		this.reconciler.reconcile();
		String pastTheWindowWithoutProof = status(paymentId);
		stripe.failLists(false);
		reconcileUntil(() -> !"PENDING".equals(status(paymentId)));
		Reply settled = order.pay();

		String key = order.providerKey(paymentId);
		assertThat(replayed.problemType()).endsWith("/payment-outcome-unknown");
		assertThat(withoutProof.problemType()).as("search found nothing, but that proves nothing")
			.endsWith("/payment-outcome-unknown");
		assertThat(pastTheWindowWithoutProof).isEqualTo("PENDING");
		assertThat(status(paymentId)).isEqualTo("FAILED");
		assertThat(settled.problemType()).endsWith("/payment-failed");
		assertThat(stripe.createKeys()).as("never a new key without proof").doesNotContain(key + "-g2");
		assertThat(stripe.intentsOf(paymentId)).isEmpty();
	}

	/**
	 * Retries the order every 100 ms for a while, longer than the settle time, as an
	 * impatient client would; the last answer.
	 */
	private Reply retryFor(Order order, Duration duration) {
		AtomicReference<Reply> last = new AtomicReference<>();
		long until = System.nanoTime() + duration.toNanos();
		await().atMost(duration.plusSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
			last.set(order.pay());
			return last.get().status() != 503 || System.nanoTime() > until;
		});
		return last.get();
	}

	/** One order, its key and its body; faults planned on the model by its order id. */
	private final class Order {

		final String orderId = "stripe-lag-" + UUID.randomUUID();

		final String key = "key-" + UUID.randomUUID();

		Order(StripeFault... faults) {
			stripe.plan(this.orderId, faults);
		}

		String providerKey(String paymentId) {
			return "payonce-payment-" + paymentId;
		}

		Reply pay() {
			return new PaymentsApi(StripeSearchLagIntegrationTests.this.port).pay(this.key, """
					{"orderId":"%s","amount":1250,"currency":"EUR","paymentMethod":"pm_card_visa"}"""
				.formatted(this.orderId));
		}

	}

}
