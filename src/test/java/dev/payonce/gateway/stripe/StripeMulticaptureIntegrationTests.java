package dev.payonce.gateway.stripe;

import java.net.http.HttpRequest;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Manual capture through the Stripe adapter on an account with multicapture
 * ({@code payonce.gateway.stripe.multicapture=true},
 * https://docs.stripe.com/payments/multicapture), end to end against
 * {@link StripeApiModel}: partial captures follow each other, every one but the last sent
 * with {@code final_capture=false}, until their sum reaches the amount; none is sent that
 * would take more than is left.
 */
@TestPropertySource(properties = { "payonce.gateway.stripe.secret-key=sk_test_model",
		"payonce.gateway.stripe.webhook-signing-secret=whsec_multicapture", "payonce.gateway.stripe.multicapture=true",
		"test.stripe-model.search-lag=0s" })
class StripeMulticaptureIntegrationTests extends StripeIntegrationFixture {

	@BeforeEach
	void accountHasMulticapture() {
		stripe.multicapture(true);
	}

	@Test
	void partialCapturesFollowEachOtherUntilTheLastTakesTheRestAndNoneTakesMore() {
		PaymentsApi api = new PaymentsApi(this.port);
		Reply held = retryUntilFinal(() -> api.pay("hold-" + UUID.randomUUID(), """
				{"orderId":"multi-%s","amount":1000,"currency":"EUR","paymentMethod":"pm_card_visa",\
				"capture":"manual"}""".formatted(UUID.randomUUID())));
		String paymentId = held.field("id");
		String intentId = held.field("providerReference");

		Reply first = capture(api, paymentId, "{\"amount\":300}");
		String afterFirst = status(paymentId);
		Reply second = capture(api, paymentId, "{\"amount\":500}");
		int sent = stripe.createKeys().size();
		Reply tooMuch = capture(api, paymentId, "{\"amount\":300}");
		Reply last = capture(api, paymentId, "{\"amount\":200}");
		Reply afterLast = capture(api, paymentId, "{\"amount\":1}");

		assertThat(first.status()).isEqualTo(201);
		assertThat(afterFirst).isEqualTo("AUTHORIZED");
		assertThat(second.status()).isEqualTo(201);
		assertThat(tooMuch.status()).isEqualTo(409);
		assertThat(tooMuch.problemType()).endsWith("/capture-exceeds-capturable");
		assertThat(tooMuch.field("capturableAmount")).isEqualTo("200");
		assertThat(stripe.createKeys()).as("the capture over what is left is never sent").hasSize(sent + 1);
		assertThat(last.status()).isEqualTo(201);
		assertThat(afterLast.status()).isEqualTo(409);
		assertThat(afterLast.problemType()).endsWith("/payment-not-capturable");
		assertThat(stripe.capturesOf(intentId)).containsExactly(300L, 500L, 200L);
		assertThat(stripe.intent(intentId).status()).isEqualTo("succeeded");
		assertThat(status(paymentId)).isEqualTo("SUCCEEDED");
	}

	private static Reply capture(PaymentsApi api, String paymentId, String json) {
		return api.send(api.request("/payments/" + paymentId + "/captures")
			.header("Idempotency-Key", "capture-" + UUID.randomUUID())
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json)));
	}

}
