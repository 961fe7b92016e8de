package dev.payonce.system;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.PayonceProcess;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.gateway.stripe.StripeApiModel.StripeFault;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import dev.payonce.gateway.stripe.StripeApiModel;

/**
 * The crash test with the Stripe adapter: the packaged jar as real processes, with
 * stripe-java talking over real HTTP to {@link StripeApiModel}. Process A sends two
 * charges that Stripe records and then answers only after a minute; A is killed with
 * SIGKILL while it waits, so neither payment is completed. Process B (reconciler on) then
 * serves one client's retry, which Stripe answers from the key's saved response, and
 * settles the other payment by search alone.
 */
@Tag("system")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StripeCrashRecoveryIntegrationTests {

	private final StripeApiModel stripe = new StripeApiModel(Duration.ofMillis(300), Duration.ofSeconds(2));

	@Autowired
	JdbcClient jdbc;

	@Autowired
	JdbcConnectionDetails database;

	private final String run = UUID.randomUUID().toString();

	private final String retriedKey = "stripe-crash-retried-" + this.run;

	private final String retriedOrder = "stripe-crash-retried-" + this.run;

	private final String reconciledKey = "stripe-crash-reconciled-" + this.run;

	private final String reconciledOrder = "stripe-crash-reconciled-" + this.run;

	private Reply retryAfterCrash;

	private PayonceProcess recovering;

	@BeforeAll
	void crashThenRecover() throws Exception {
		this.stripe.plan(this.retriedOrder, StripeFault.HANG_AFTER_CHARGE);
		this.stripe.plan(this.reconciledOrder, StripeFault.HANG_AFTER_CHARGE);
		ExecutorService abandonedClients = Executors.newFixedThreadPool(2);
		try (PayonceProcess crashing = PayonceProcess.start("stripe-a-crashes", this.database,
				settings(Map.of("payonce.reconciliation.enabled", "false")))) {
			crashing.awaitReady();
			PaymentsApi a = new PaymentsApi(crashing.port());
			abandonedClients.submit(() -> a.pay(this.retriedKey, body(this.retriedOrder)));
			abandonedClients.submit(() -> a.pay(this.reconciledKey, body(this.reconciledOrder)));

			await().atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofMillis(10))
				.until(() -> charged(this.retriedOrder) && charged(this.reconciledOrder));
			crashing.kill();
		}
		finally {
			abandonedClients.shutdownNow();
		}
		this.recovering = PayonceProcess.start("stripe-b-recovers", this.database, settings(
				Map.of("payonce.reconciliation.interval", "250ms", "payonce.reconciliation.stale-after", "15s")));
		this.recovering.awaitReady();
		awaitLeaseEnd(this.retriedKey);
		this.retryAfterCrash = new PaymentsApi(this.recovering.port()).pay(this.retriedKey, body(this.retriedOrder));
		await().atMost(Duration.ofSeconds(60)).until(() -> "COMPLETED".equals(recordStatus(this.reconciledKey)));
	}

	@AfterAll
	void stop() throws Exception {
		if (this.recovering != null) {
			this.recovering.close();
		}
		this.stripe.shutdown();
	}

	@Test
	void retryAfterCrashWhileStripeAnsweredReturnsTheOriginalPaymentIntent() {
		String paymentId = paymentId(this.retriedOrder);

		assertThat(this.retryAfterCrash.status()).isEqualTo(201);
		assertThat(this.retryAfterCrash.field("providerReference"))
			.isEqualTo(this.stripe.intentsOf(paymentId).get(0).id());
		assertThat(this.stripe.chargesOf(paymentId)).isEqualTo(1);
	}

	@Test
	void reconcilerAloneSettlesTheOtherCrashedPaymentBySearchWithoutCharging() {
		String paymentId = paymentId(this.reconciledOrder);

		Reply retry = new PaymentsApi(this.recovering.port()).pay(this.reconciledKey, body(this.reconciledOrder));

		assertThat(retry.status()).isEqualTo(201);
		assertThat(retry.header("Idempotent-Replayed")).contains("true");
		assertThat(retry.field("providerReference")).isEqualTo(this.stripe.intentsOf(paymentId).get(0).id());
		assertThat(this.stripe.chargesOf(paymentId)).isEqualTo(1);
		assertThat(this.stripe.createKeys()).as("the reconciler only searched")
			.containsOnlyOnce("payonce-payment-" + paymentId);
	}

	/** Lease 14 s > worst-case call 2 × (1 s + 5 s) + margin 1 s; give-up 40 s. */
	private Map<String, String> settings(Map<String, String> extra) {
		Map<String, String> all = new HashMap<>(Map.of("payonce.gateway.provider", "stripe",
				"payonce.gateway.stripe.secret-key", "sk_test_model", "payonce.gateway.stripe.webhook-signing-secret",
				"whsec_crash", "payonce.gateway.stripe.api-base", this.stripe.baseUrl(),
				"payonce.gateway.stripe.connect-timeout", "1s", "payonce.gateway.stripe.read-timeout", "5s",
				"payonce.gateway.stripe.search-settle-time", "1s", "payonce.idempotency.lease", "14s",
				"payonce.reconciliation.lease-margin", "1s"));
		all.put("payonce.reconciliation.give-up-after", "40s");
		all.putAll(extra);
		return all;
	}

	private boolean charged(String orderId) {
		return this.jdbc.sql("SELECT id::text FROM payments WHERE order_id = ?")
			.param(orderId)
			.query(String.class)
			.optional()
			.map((paymentId) -> this.stripe.chargesOf(paymentId) == 1)
			.orElse(false);
	}

	private String paymentId(String orderId) {
		return this.jdbc.sql("SELECT id::text FROM payments WHERE order_id = ?")
			.param(orderId)
			.query(String.class)
			.single();
	}

	private void awaitLeaseEnd(String key) {
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.jdbc
				// Completed (no lease) counts too: on a slow machine the reconciler may
				// settle it first.
				.sql("SELECT coalesce(locked_until <= now(), true) FROM idempotency_records WHERE idempotency_key = ?")
				.param(key)
				.query(Boolean.class)
				.single());
	}

	private String recordStatus(String key) {
		return this.jdbc.sql("SELECT status FROM idempotency_records WHERE idempotency_key = ?")
			.param(key)
			.query(String.class)
			.single();
	}

	private static String body(String orderId) {
		return """
				{"orderId":"%s","amount":2100,"currency":"EUR","paymentMethod":"pm_card_visa"}""".formatted(orderId);
	}

}
