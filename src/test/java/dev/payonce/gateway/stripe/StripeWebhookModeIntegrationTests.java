package dev.payonce.gateway.stripe;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.stripe.Stripe;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.TestPropertySource;

import dev.payonce.TestCredentials;
import dev.payonce.gateway.stripe.StripeApiModel.Intent;
import dev.payonce.gateway.stripe.StripeApiModel.StripeFault;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A live-mode Stripe key (docs/design.md section 10, "One mode"): a correctly signed
 * test-mode event naming a PENDING live payment, same amount and currency, is
 * acknowledged, recorded IGNORED and settles nothing; the live-mode event of the same
 * PaymentIntent settles it.
 */
@TestPropertySource(properties = { "payonce.gateway.stripe.secret-key=sk_live_model",
		"payonce.gateway.stripe.webhook-signing-secret=" + StripeWebhookModeIntegrationTests.SECRET,
		"payonce.gateway.stripe.search-settle-time=0s", "test.stripe-model.search-lag=0s" })
class StripeWebhookModeIntegrationTests extends StripeIntegrationFixture {

	static final String SECRET = "whsec_live_mode_test_secret";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void testModeEventNamingAPendingLivePaymentIsAcknowledgedIgnoredAndSettlesNothing() throws Exception {
		String orderId = "live-" + UUID.randomUUID();
		// Reset before the answer, and before the answer to the HTTP client's resend.
		stripe.plan(orderId, StripeFault.RESET_AFTER_CHARGE, StripeFault.RESET_AFTER_CHARGE);
		// A live Stripe key takes live API keys only (docs/design.md section 5, "One mode
		// per adapter").
		PaymentsApi admin = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN);
		Reply client = admin.send(admin.request("/admin/clients")
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"live-mode-webhooks\",\"mode\":\"live\"}")));
		Reply first = new PaymentsApi(this.port, client.field("apiKey")).pay("key-" + UUID.randomUUID(), """
				{"orderId":"%s","amount":1250,"currency":"EUR","paymentMethod":"pm_card_visa"}""".formatted(orderId));
		assertThat(first.problemType()).endsWith("/payment-outcome-unknown");
		String paymentId = first.field("paymentId");
		Intent live = stripe.intentsOf(paymentId).get(0);
		Intent testModeImpostor = new Intent("pi_test_" + UUID.randomUUID().toString().replace("-", ""), paymentId,
				live.amount(), live.currency(), "succeeded", null, Instant.now());
		String testEvent = event(testModeImpostor, false);
		String liveEvent = event(live, true);

		assertThat(reference(paymentId)).as("no reference yet: only the mode tells the impostor apart").isNull();

		HttpResponse<String> ignored = deliver(testEvent);
		String statusAfterTestEvent = status(paymentId);
		HttpResponse<String> applied = deliver(liveEvent);

		assertThat(ignored.statusCode()).isEqualTo(200);
		assertThat(statusAfterTestEvent).isEqualTo("PENDING");
		assertThat(this.jdbc.sql("SELECT effect FROM provider_webhook_events WHERE event_id = ?")
			.param(JSON.readTree(testEvent).get("id").asString())
			.query(String.class)
			.single()).isEqualTo("IGNORED");
		assertThat(applied.statusCode()).isEqualTo(200);
		assertThat(status(paymentId)).isEqualTo("SUCCEEDED");
		assertThat(reference(paymentId)).isEqualTo(live.id());
	}

	private String reference(String paymentId) {
		return this.jdbc.sql("SELECT provider_reference FROM payments WHERE id = ?::uuid")
			.param(paymentId)
			.query((rs, row) -> rs.getString(1))
			.list()
			.get(0);
	}

	private static String event(Intent intent, boolean livemode) {
		Map<String, Object> object = intent.json();
		object.put("livemode", livemode);
		Map<String, Object> event = new LinkedHashMap<>();
		event.put("id", "evt_" + UUID.randomUUID().toString().replace("-", ""));
		event.put("object", "event");
		event.put("api_version", Stripe.API_VERSION);
		event.put("created", Instant.now().getEpochSecond());
		event.put("livemode", livemode);
		event.put("pending_webhooks", 1);
		event.put("type", "payment_intent.succeeded");
		event.put("data", Map.of("object", object));
		return JSON.writeValueAsString(event);
	}

	private HttpResponse<String> deliver(String payload) throws Exception {
		long now = Instant.now().getEpochSecond();
		Mac mac = Mac.getInstance("HmacSHA256");
		mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
		String signature = "t=" + now + ",v1="
				+ HexFormat.of().formatHex(mac.doFinal((now + "." + payload).getBytes(StandardCharsets.UTF_8)));
		return this.http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/webhooks/stripe"))
			.header("Content-Type", "application/json")
			.header("Stripe-Signature", signature)
			.POST(HttpRequest.BodyPublishers.ofString(payload))
			.timeout(Duration.ofSeconds(30))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

}
