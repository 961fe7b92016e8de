package dev.payonce.gateway.stripe;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistrar;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.idempotency.IdempotencyReconciler;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.awaitility.Awaitility.await;

/**
 * The setup the Stripe adapter's end-to-end tests share: Payonce on a random port with
 * the Stripe adapter, real PostgreSQL, the reconciler off (a test runs it), and
 * stripe-java over real HTTP to a {@link StripeApiModel} of the context's own, whose
 * Search lags {@code test.stripe-model.search-lag} behind its writes and whose clock is
 * the application's (moved by {@link dev.payonce.OffsetClock} where a test imports it). A
 * test class adds its own properties with
 * {@link org.springframework.test.context.TestPropertySource}: the secret key (its mode),
 * the webhook signing secret, the settle time, the model's lag.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "payonce.gateway.provider=stripe", "payonce.gateway.stripe.connect-timeout=1s",
				"payonce.gateway.stripe.read-timeout=1s", "payonce.reconciliation.enabled=false" })
@Import({ TestcontainersConfiguration.class, StripeIntegrationFixture.Model.class })
abstract class StripeIntegrationFixture {

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	IdempotencyReconciler reconciler;

	/** The context's model of Stripe. */
	@Autowired
	StripeApiModel stripe;

	/**
	 * Sends the request every 100 ms until the answer is not a 503, as an impatient
	 * client would; the last answer.
	 */
	Reply retryUntilFinal(Supplier<Reply> request) {
		AtomicReference<Reply> last = new AtomicReference<>();
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
			last.set(request.get());
			return last.get().status() != 503;
		});
		return last.get();
	}

	/** Runs the reconciler until the condition holds; no sleep orders anything here. */
	void reconcileUntil(BooleanSupplier condition) {
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
			this.reconciler.reconcile();
			return condition.getAsBoolean();
		});
	}

	String status(String paymentId) {
		return this.jdbc.sql("SELECT status FROM payments WHERE id = ?::uuid")
			.param(paymentId)
			.query(String.class)
			.single();
	}

	int generation(String paymentId) {
		return this.jdbc.sql("SELECT provider_key_generation FROM payments WHERE id = ?::uuid")
			.param(paymentId)
			.query(Integer.class)
			.single();
	}

	String refundStatus(String refundId) {
		return this.jdbc.sql("SELECT status FROM refunds WHERE id = ?::uuid")
			.param(refundId)
			.query(String.class)
			.single();
	}

	long refundedAmount(String paymentId) {
		return this.jdbc.sql("SELECT refunded_amount FROM payments WHERE id = ?::uuid")
			.param(paymentId)
			.query(Long.class)
			.single();
	}

	/**
	 * The model as a bean of the test's context: started with it, stopped when the
	 * context closes, and the adapter's {@code api-base} pointed at it before the adapter
	 * is built.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class Model {

		@Bean(destroyMethod = "shutdown")
		StripeApiModel stripeApiModel(@Value("${test.stripe-model.search-lag}") Duration searchLag, Clock clock) {
			StripeApiModel model = new StripeApiModel(searchLag, Duration.ofMillis(1500));
			// Stripe stamps created with a clock that agrees with Payonce's, moved or
			// not.
			model.clock(clock);
			return model;
		}

		@Bean
		DynamicPropertyRegistrar stripeApiBase(StripeApiModel model) {
			return (registry) -> registry.add("payonce.gateway.stripe.api-base", model::baseUrl);
		}

	}

}
