package dev.payonce.event.web;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.standardwebhooks.Webhook;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;

import dev.payonce.TestCredentials;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.event.HostResolver;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * docs/events.md, "Delivery": events of a client's payments reach its endpoint on
 * 127.0.0.1 signed with the Standard Webhooks scheme, verified by the scheme's own Java
 * library; failed attempts are retried with backoff and every attempt is recorded; during
 * a rotation each delivery carries two signatures, each verifying with its secret. The
 * dispatcher runs on its timer, with loopback allowed; the context is closed afterwards
 * so no other class's events are delivered by it.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "payonce.events.dispatch=true", "payonce.events.allow-loopback=true",
				"payonce.events.interval=50ms", "payonce.events.first-retry=100ms",
				"payonce.events.max-retry-delay=400ms", "payonce.events.response-timeout=2s" })
@Import({ TestcontainersConfiguration.class, WebhookDeliveryIntegrationTests.LiteralsOnly.class })
@DirtiesContext
class WebhookDeliveryIntegrationTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	Receiver receiver;

	PaymentsApi client;

	@BeforeEach
	void setUp() throws Exception {
		this.receiver = new Receiver();
		Reply created = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN)
			.send(new PaymentsApi(this.port).request("/admin/clients")
				.header("Content-Type", "application/json")
				.POST(java.net.http.HttpRequest.BodyPublishers
					.ofString("{\"name\":\"events-" + UUID.randomUUID().toString().substring(0, 8) + "\"}")));
		assertThat(created.status()).isEqualTo(201);
		this.client = new PaymentsApi(this.port, created.field("apiKey"));
	}

	@AfterEach
	void tearDown() {
		this.receiver.close();
	}

	@Test
	void everyEventReachesTheEndpointSignedAndFailedAttemptsAreRetriedAndRecorded() throws Exception {
		Reply endpoint = register("[\"payment.succeeded\", \"payment.declined\"]");
		String secret = endpoint.field("secret");
		// Each event's first two attempts fail with 500; the third is delivered.
		this.receiver.failing((attempt) -> attempt <= 2);

		Reply paid = this.client.pay("k-" + UUID.randomUUID(),
				PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 1200, "ILS"));
		Reply declined = this.client.pay("k-" + UUID.randomUUID(), """
				{"orderId":"order-%s","amount":1300,"currency":"ILS","paymentMethod":"pm_card_chargeDeclined"}"""
			.formatted(UUID.randomUUID()));

		assertThat(paid.status()).isEqualTo(201);
		assertThat(declined.status()).isEqualTo(402);
		await().atMost(Duration.ofSeconds(30)).until(() -> delivered().size() == 2);
		Webhook verifier = new Webhook(secret);
		for (Receiver.Received received : this.receiver.received()) {
			verifier.verify(received.body(), received.headers());
		}
		Map<String, String> types = Map.of(paid.field("id"), "payment.succeeded", declined.field("paymentId"),
				"payment.declined");
		for (Receiver.Received received : delivered()) {
			String resource = JSON.readTree(received.body()).path("data").path("id").asString();
			assertThat(JSON.readTree(received.body()).path("type").asString()).isEqualTo(types.get(resource));
			assertThat(received.header("webhook-id")).isEqualTo(eventOf(resource).toString());
		}
		// The receiver answers before the dispatcher records the attempt.
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(this.jdbc.sql("""
					SELECT count(*) FROM event_delivery_attempts a JOIN event_deliveries d ON d.id = a.delivery_id
					WHERE d.endpoint_id = ?::uuid""").param(endpoint.field("id")).query(Long.class).single())
				.as("every attempt recorded")
				.isEqualTo(6));
		assertThat(this.jdbc.sql("""
				SELECT count(*) FROM event_delivery_attempts a JOIN event_deliveries d ON d.id = a.delivery_id
				WHERE d.endpoint_id = ?::uuid AND a.http_status = 500 AND a.error_kind = 'status'""")
			.param(endpoint.field("id"))
			.query(Long.class)
			.single()).isEqualTo(4);
		Reply feed = this.client.get("/events");
		assertThat(feed.status()).isEqualTo(200);
		assertThat(feed.json().path("data").size()).isEqualTo(2);
		assertThat(feed.json().path("data").get(0).path("delivered").asBoolean()).isTrue();
	}

	@Test
	void duringARotationEachDeliveryCarriesTwoSignaturesEachVerifyingWithItsSecret() throws Exception {
		Reply endpoint = register("[\"*\"]");
		String oldSecret = endpoint.field("secret");
		Reply rotated = this.client
			.send(this.client.request("/webhook-endpoints/" + endpoint.field("id") + "/rotate-secret")
				.POST(java.net.http.HttpRequest.BodyPublishers.noBody()));
		String newSecret = rotated.field("secret");

		this.client.pay("k-" + UUID.randomUUID(), PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 900, "ILS"));

		assertThat(rotated.status()).isEqualTo(200);
		assertThat(newSecret).isNotEqualTo(oldSecret);
		await().atMost(Duration.ofSeconds(30)).until(() -> delivered().size() == 1);
		Receiver.Received received = delivered().get(0);
		String[] signatures = received.header("webhook-signature").split(" ");
		assertThat(signatures).hasSize(2).allSatisfy((signature) -> assertThat(signature).startsWith("v1,"));
		for (String secret : List.of(oldSecret, newSecret)) {
			Map<String, List<String>> one = new java.util.HashMap<>(received.headers());
			one.put("webhook-signature", List.of(secret.equals(newSecret) ? signatures[0] : signatures[1]));
			new Webhook(secret).verify(received.body(), one);
		}
	}

	private Reply register(String types) {
		Reply endpoint = this.client.send(this.client.request("/webhook-endpoints")
			.header("Content-Type", "application/json")
			.POST(java.net.http.HttpRequest.BodyPublishers.ofString("""
					{"url":"%s","eventTypes":%s}""".formatted(this.receiver.url(), types))));
		assertThat(endpoint.status()).as(endpoint.body()).isEqualTo(201);
		assertThat(endpoint.field("secret")).startsWith("whsec_");
		return endpoint;
	}

	private List<Receiver.Received> delivered() {
		return this.receiver.received().stream().filter((received) -> received.answered() == 204).toList();
	}

	private UUID eventOf(String resourceId) {
		return this.jdbc.sql("SELECT id FROM merchant_events WHERE resource_id = ?::uuid")
			.param(resourceId)
			.query(UUID.class)
			.single();
	}

	/**
	 * This context's dispatcher delivers every client's events: it resolves IP literals
	 * only, never a name through DNS, so no stored URL can lead it off this machine.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class LiteralsOnly {

		@Bean
		HostResolver literalsOnly() {
			return (host) -> {
				if (!host.matches("127\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}")) {
					throw new UnknownHostException("not resolved in this test: " + host);
				}
				return List.of(InetAddress.getByName(host));
			};
		}

	}

}
