package dev.payonce.payment.web;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.persistence.EntityManagerFactory;
import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.CountedStatements;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.provider.ChargeRequest;
import dev.payonce.provider.GatewayResult;
import dev.payonce.payment.Payment;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.refund.Refund;
import dev.payonce.provider.RefundRequest;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md section 4, "Completion in one statement": a payment's or refund's fenced
 * completion writes the resource the act step read with one versioned {@code UPDATE},
 * without reading it again, and never overwrites one that changed while its provider call
 * was in flight: it then reads it again and moves that. A new refund is sent with the
 * charge reference its reservation returned, without reading the payment. Hibernate's
 * statistics count the entity reads; real HTTP and real PostgreSQL; the simulated
 * provider, held on a latch where a test needs the charge in flight.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "payonce.reconciliation.enabled=false", "payonce.idempotency.cleanup.enabled=false" })
// One context with StatementsPerRequestIntegrationTests, whose statement counter
// only records.
@Import({ TestcontainersConfiguration.class, CountedStatements.class,
		CompletionWithoutRereadIntegrationTests.HeldCharges.class })
class CompletionWithoutRereadIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	EntityManagerFactory entityManagerFactory;

	@Autowired
	HeldGateway gateway;

	PaymentsApi api;

	Statistics statistics;

	@BeforeEach
	void setUp() {
		this.api = new PaymentsApi(this.port);
		this.statistics = this.entityManagerFactory.unwrap(SessionFactory.class).getStatistics();
		this.statistics.clear();
		this.statistics.setStatisticsEnabled(true);
	}

	@AfterEach
	void tearDown() {
		this.statistics.setStatisticsEnabled(false);
	}

	@Test
	void approvedAndDeclinedPaymentsAreCompletedWithoutReadingThePaymentAgain() {
		Reply approved = this.api.pay(PaymentIdempotencyIntegrationTests.newKey(),
				PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 1500, "ILS"));
		Reply declined = this.api.pay(PaymentIdempotencyIntegrationTests.newKey(), """
				{"orderId":"order-%s","amount":1600,"currency":"ILS","paymentMethod":"pm_card_chargeDeclined"}"""
			.formatted(UUID.randomUUID()));

		assertThat(approved.status()).isEqualTo(201);
		assertThat(declined.status()).isEqualTo(402);
		assertThat(paymentReads()).isZero();
		assertThat(row(approved.field("id"))).containsEntry("status", "SUCCEEDED")
			.containsEntry("provider_reference", approved.field("providerReference"))
			.containsEntry("version", 1L);
		assertThat(row(declined.field("paymentId"))).containsEntry("status", "DECLINED")
			.containsEntry("decline_code", "card_declined")
			.containsEntry("version", 1L);
		// The receipt stored from the moved copy is what the payment reads as now.
		assertThat(this.api.get("/payments/" + approved.field("id")).body()).isEqualTo(approved.body());
	}

	@Test
	void aNewRefundIsSentAndCompletedWithoutReadingTheRefundOrItsPayment() {
		Reply payment = this.api.pay(PaymentIdempotencyIntegrationTests.newKey(),
				PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 2000, "ILS"));
		assertThat(payment.status()).isEqualTo(201);
		this.statistics.clear();

		Reply refund = this.api.refund(payment.field("id"), PaymentIdempotencyIntegrationTests.newKey(), """
				{"amount":700}""");

		assertThat(refund.status()).isEqualTo(201);
		assertThat(paymentReads()).isZero();
		assertThat(this.statistics.getEntityStatistics(Refund.class.getName()).getLoadCount()).isZero();
		assertThat(this.jdbc.sql("SELECT status, version FROM refunds WHERE id = ?")
			.param(UUID.fromString(refund.field("id")))
			.query()
			.singleRow()).containsEntry("status", "SUCCEEDED").containsEntry("version", 1L);
		assertThat(this.jdbc.sql("SELECT refunded_amount, refunds_in_flight FROM payments WHERE id = ?")
			.param(UUID.fromString(payment.field("id")))
			.query()
			.singleRow()).containsEntry("refunded_amount", 700L).containsEntry("refunds_in_flight", 0L);
		assertThat(this.api.get("/payments/" + payment.field("id") + "/refunds/" + refund.field("id")).body())
			.isEqualTo(refund.body());
	}

	@Test
	void aPaymentChangedWhileItsChargeWasInFlightIsReadAgainAndNotOverwritten() throws Exception {
		String orderId = "order-" + UUID.randomUUID();
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch mayLeave = new CountDownLatch(1);
		this.gateway.hold(orderId, entered, mayLeave);
		String key = PaymentIdempotencyIntegrationTests.newKey();
		CompletableFuture<Reply> reply = CompletableFuture
			.supplyAsync(() -> this.api.pay(key, PaymentsApi.paymentBody(orderId, 1700, "ILS")));
		assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
		// Another writer changes the payment while the charge is in flight: its version
		// moves on, and a column the completion's copy still holds as null is set.
		Instant replayedAt = Instant.parse("2026-01-02T03:04:05.123456Z");
		assertThat(this.jdbc
			.sql("UPDATE payments SET version = version + 1, provider_key_replayed_at = ? WHERE order_id = ?")
			.params(Timestamp.from(replayedAt), orderId)
			.update()).isEqualTo(1);

		mayLeave.countDown();
		Reply answer = reply.get(30, TimeUnit.SECONDS);

		assertThat(answer.status()).isEqualTo(201);
		Map<String, Object> row = row(answer.field("id"));
		assertThat(row).containsEntry("status", "SUCCEEDED").containsEntry("version", 2L);
		assertThat(((Timestamp) row.get("provider_key_replayed_at")).toInstant()).isEqualTo(replayedAt);
		// Read again by the engine's own statement (SELECT ... FOR UPDATE, built from the
		// mapping at start-up), never through Hibernate.
		assertThat(paymentReads()).isZero();
		// The response stored is the one rendered from the payment read again.
		Reply replay = this.api.pay(key, PaymentsApi.paymentBody(orderId, 1700, "ILS"));
		assertThat(replay.header("Idempotent-Replayed")).contains("true");
		assertThat(replay.body()).isEqualTo(answer.body());
		assertThat(this.api.get("/payments/" + answer.field("id")).body()).isEqualTo(answer.body());
	}

	private long paymentReads() {
		return this.statistics.getEntityStatistics(Payment.class.getName()).getLoadCount();
	}

	private Map<String, Object> row(String paymentId) {
		return this.jdbc.sql(
				"SELECT status, provider_reference, decline_code, version, provider_key_replayed_at FROM payments WHERE id = ?")
			.param(UUID.fromString(paymentId))
			.query()
			.singleRow();
	}

	/**
	 * The held gateway as the application's. Imported, and not annotated: a nested
	 * configuration class would join this class's context configuration alone, and
	 * StatementsPerRequestIntegrationTests could not share the context.
	 */
	static class HeldCharges {

		@Bean
		@Primary
		HeldGateway heldGateway(@Qualifier("simulatorPaymentGateway") PaymentGateway simulator) {
			return new HeldGateway(simulator);
		}

	}

	/**
	 * The simulated provider, except that the charge of one chosen order signals
	 * {@code entered} and waits for {@code mayLeave} before it is made.
	 */
	static final class HeldGateway implements PaymentGateway {

		private final PaymentGateway simulator;

		private volatile String heldOrder = "";

		private volatile CountDownLatch entered = new CountDownLatch(0);

		private volatile CountDownLatch mayLeave = new CountDownLatch(0);

		HeldGateway(PaymentGateway simulator) {
			this.simulator = simulator;
		}

		void hold(String orderId, CountDownLatch entered, CountDownLatch mayLeave) {
			this.entered = entered;
			this.mayLeave = mayLeave;
			this.heldOrder = orderId;
		}

		@Override
		public GatewayResult charge(ChargeRequest request) {
			if (this.heldOrder.equals(request.orderId())) {
				this.entered.countDown();
				try {
					if (!this.mayLeave.await(30, TimeUnit.SECONDS)) {
						throw new IllegalStateException("The test never let the charge go");
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException(ex);
				}
			}
			return this.simulator.charge(request);
		}

		@Override
		public GatewayResult lookup(ChargeRequest request) {
			return this.simulator.lookup(request);
		}

		@Override
		public Duration lookupSettleTime() {
			return this.simulator.lookupSettleTime();
		}

		@Override
		public boolean replaysFailuresUnderProviderKey() {
			return this.simulator.replaysFailuresUnderProviderKey();
		}

		@Override
		public Optional<Duration> providerKeyRetention() {
			return this.simulator.providerKeyRetention();
		}

		@Override
		public GatewayResult refund(RefundRequest request) {
			return this.simulator.refund(request);
		}

		@Override
		public GatewayResult lookupRefund(RefundRequest request) {
			return this.simulator.lookupRefund(request);
		}

		@Override
		public Duration worstCaseCallDuration() {
			return this.simulator.worstCaseCallDuration();
		}

	}

}
