package dev.payonce.gateway.stripe;

import java.net.http.HttpRequest.BodyPublishers;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.payonce.TestCredentials;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md section 13: with every logger at TRACE ({@code logging.level.root}),
 * payments and refunds through stripe-java over real HTTP to {@link StripeApiModel} leave
 * no secret in the whole captured log: not the Stripe secret key (the JDK's
 * {@code HttpURLConnection} logs its request headers at DEBUG), the webhook signing
 * secret, the admin token, a client's API key or an idempotency key. The secrets reach
 * the application through {@link DynamicPropertySource}, which the test framework does
 * not print, so any leak is the application's.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "logging.level.root=TRACE", "payonce.gateway.provider=stripe",
				"payonce.gateway.stripe.connect-timeout=1s", "payonce.gateway.stripe.read-timeout=2s",
				"payonce.reconciliation.enabled=false", "spring.mvc.log-request-details=true" })
@Import(TestcontainersConfiguration.class)
@ExtendWith(OutputCaptureExtension.class)
class StripeCredentialLoggingIntegrationTests {

	static final StripeApiModel stripe = new StripeApiModel(Duration.ofMillis(300), Duration.ofMillis(1500));

	static final String SECRET_KEY = "sk_test_" + UUID.randomUUID().toString().replace("-", "");

	static final String WEBHOOK_SECRET = "whsec_" + UUID.randomUUID().toString().replace("-", "");

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void stripeApi(DynamicPropertyRegistry registry) {
		registry.add("payonce.gateway.stripe.api-base", stripe::baseUrl);
		registry.add("payonce.gateway.stripe.secret-key", () -> SECRET_KEY);
		registry.add("payonce.gateway.stripe.webhook-signing-secret", () -> WEBHOOK_SECRET);
	}

	@AfterAll
	static void stopStripe() {
		stripe.shutdown();
	}

	@Test
	void writesNoSecretAtTraceWhilePayingAndRefundingThroughStripe(CapturedOutput output) {
		PaymentsApi admin = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN);
		String apiKey = admin
			.send(admin.request("/admin/clients")
				.header("Content-Type", "application/json")
				.POST(BodyPublishers.ofString("{\"name\":\"stripe-logged\"}")))
			.field("apiKey");
		PaymentsApi client = new PaymentsApi(this.port, apiKey);
		String paymentKey = "pay" + UUID.randomUUID().toString().replace("-", "");
		String refundKey = "refund" + UUID.randomUUID().toString().replace("-", "");

		Reply paid = client.pay(paymentKey, """
				{"orderId":"stripe-log","amount":1250,"currency":"EUR","paymentMethod":"pm_card_visa"}""");
		Reply refunded = client.refund(paid.field("id"), refundKey, "{\"amount\":250}");
		Reply listed = client.get("/payments/" + paid.field("id") + "/refunds");

		assertThat(paid.status()).isEqualTo(201);
		assertThat(refunded.status()).isEqualTo(201);
		assertThat(listed.status()).isEqualTo(200);
		assertThat(output.getAll()).contains("Tomcat started");
		List<String> secrets = List.of(SECRET_KEY, WEBHOOK_SECRET, TestCredentials.ADMIN_TOKEN, apiKey, paymentKey,
				refundKey);
		List<String> leaks = output.getAll()
			.lines()
			.filter((line) -> secrets.stream().anyMatch(line::contains))
			.map((line) -> line.substring(0, Math.min(line.length(), 240)))
			.toList();
		assertThat(leaks).as("log lines carrying a secret").isEmpty();
	}

}
