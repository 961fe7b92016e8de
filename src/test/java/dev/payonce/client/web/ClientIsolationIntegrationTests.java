package dev.payonce.client.web;

import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestCredentials;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.gateway.simulator.SimulatorSettings;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.KeyDigests;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys, payments and replays are scoped to the client (docs/design.md sections 1 and 6):
 * two clients with the same idempotency key make two independent payments, a guessed
 * payment id of another client is a 404, and no replay, 409 or 422 ever reveals another
 * client's data. The simulated provider takes 50 ms so that one client's request is in
 * flight while the other's arrives.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
@ExtendWith(OutputCaptureExtension.class)
class ClientIsolationIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	KeyDigests keyDigests;

	PaymentsApi alice;

	PaymentsApi bob;

	AdminApi admin;

	@Autowired
	ApplicationContext context;

	@BeforeEach
	void simulatorSettings() {
		SimulatorSettings.of(this.context).latency(Duration.ofMillis(50));
	}

	@AfterEach
	void resetSimulator() {
		SimulatorSettings.of(this.context).reset();
	}

	@BeforeEach
	void setUp() {
		this.admin = new AdminApi(this.port);
		this.alice = new PaymentsApi(this.port, this.admin.newClientKey("alice"));
		this.bob = new PaymentsApi(this.port, this.admin.newClientKey("bob"));
	}

	@Test
	void sameKeyForTwoClientsMakesTwoIndependentPayments() {
		String key = "order-4711";
		String body = body("order-4711", 5000);

		Reply alicePaid = this.alice.pay(key, body);
		Reply bobPaid = this.bob.pay(key, body);

		assertThat(alicePaid.status()).isEqualTo(201);
		assertThat(bobPaid.status()).isEqualTo(201);
		assertThat(bobPaid.header("Idempotent-Replayed")).isEmpty();
		assertThat(bobPaid.field("id")).isNotEqualTo(alicePaid.field("id"));
		assertThat(bobPaid.field("providerReference")).isNotEqualTo(alicePaid.field("providerReference"));
		assertThat(this.alice.pay(key, body).body()).isEqualTo(alicePaid.body());
		assertThat(this.bob.pay(key, body).body()).isEqualTo(bobPaid.body());
	}

	@Test
	void anotherClientsPaymentIsNotFoundLikeAnUnknownOne() {
		Reply alicePaid = this.alice.pay("k-" + UUID.randomUUID(), body("order-a", 100));

		Reply guessed = this.bob.get("/payments/" + alicePaid.field("id"));
		Reply unknown = this.bob.get("/payments/" + UUID.randomUUID());

		assertThat(guessed.status()).isEqualTo(404);
		assertThat(guessed.problemType()).isEqualTo(unknown.problemType());
		assertThat(guessed.field("detail")).isEqualTo(unknown.field("detail"));
		assertThat(guessed.body()).doesNotContain(alicePaid.field("providerReference")).doesNotContain("order-a");
	}

	@Test
	void anotherClientsKeyWithAnotherBodyIsANewPaymentNotAMismatch() {
		String key = "shared-" + UUID.randomUUID();
		Reply alicePaid = this.alice.pay(key, body("order-alice", 1000));

		Reply bobPaid = this.bob.pay(key, body("order-bob", 2000));

		assertThat(bobPaid.status()).isEqualTo(201);
		assertThat(bobPaid.field("orderId")).isEqualTo("order-bob");
		assertThat(bobPaid.body()).doesNotContain(alicePaid.field("id")).doesNotContain("order-alice");
		assertThat(this.alice.pay(key, body("order-bob", 2000)).status()).isEqualTo(422);
		assertThat(this.bob.pay(key, body("order-alice", 1000)).status()).isEqualTo(422);
	}

	@Test
	void oneClientsRequestInFlightNeverMakesAnotherClientWait() throws Exception {
		String key = "inflight-" + UUID.randomUUID();
		CountDownLatch go = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			Future<Reply> alicePaid = threads.submit(() -> {
				go.await();
				return this.alice.pay(key, body("order-alice", 3000));
			});
			Future<Reply> bobPaid = threads.submit(() -> {
				go.await();
				return this.bob.pay(key, body("order-bob", 4000));
			});

			go.countDown();
			Reply a = alicePaid.get(30, TimeUnit.SECONDS);
			Reply b = bobPaid.get(30, TimeUnit.SECONDS);

			assertThat(a.status()).isEqualTo(201);
			assertThat(b.status()).isEqualTo(201);
			assertThat(a.field("orderId")).isEqualTo("order-alice");
			assertThat(b.field("orderId")).isEqualTo("order-bob");
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void logsJsonWithClientPaymentAndKeyDigestButNeverKeysOrCredentials(CapturedOutput output) {
		Reply created = this.admin.createClient("logged");
		String apiKey = created.field("apiKey");
		PaymentsApi carol = new PaymentsApi(this.port, apiKey);
		String key = "secret-key-" + UUID.randomUUID();
		String unknownKey = "sk_test_" + "Z".repeat(43);

		Reply paid = carol.pay(key, body("order-log", 700));
		carol.pay(key, body("order-log", 700));
		carol.pay(key, body("order-log", 701));
		carol.pay(key + "-declined",
				"{\"orderId\":\"o\",\"amount\":1,\"currency\":\"ILS\",\"paymentMethod\":\"pm_card_chargeDeclined\"}");
		carol.pay(key + "-bad", "{\"amount\":12.5}");
		new PaymentsApi(this.port, unknownKey).pay(key + "-unauthenticated", body("order-log", 700));
		String rotatedKey = this.admin.rotate(created.field("id")).field("apiKey");
		this.admin.disable(created.field("id"));
		carol.pay(key + "-disabled", body("order-log", 700));

		assertThat(output.getAll()).isNotEmpty();
		for (String secret : Set.of(apiKey, rotatedKey, unknownKey, TestCredentials.ADMIN_TOKEN,
				TestCredentials.DEV_KEY, key)) {
			assertThat(output.getAll()).doesNotContain(secret);
		}
		assertThat(output.getAll()).contains(created.field("id"));
		String completion = output.getAll()
			.lines()
			.filter((line) -> line.contains("Payment " + paid.field("id") + " completed"))
			.findFirst()
			.orElseThrow();
		assertThat(completion).startsWith("{")
			.contains("\"clientId\":\"" + created.field("id") + "\"", "\"paymentId\":\"" + paid.field("id") + "\"",
					"\"idempotencyKeyDigest\":\"" + this.keyDigests.digest(created.field("id"), new IdempotencyKey(key))
							+ "\"");
	}

	private static String body(String orderId, long amount) {
		return """
				{"orderId":"%s","amount":%d,"currency":"ILS"}""".formatted(orderId, amount);
	}

}
