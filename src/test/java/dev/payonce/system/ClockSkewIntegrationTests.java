package dev.payonce.system;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.MeterReadings;
import dev.payonce.OffsetClock;
import dev.payonce.PayonceApplication;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.client.SecurityProperties;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.provider.Money;
import dev.payonce.payment.PaymentCommand;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import dev.payonce.payment.web.PaymentsApi;

/**
 * docs/design.md section 4, "One clock for leases": two instances on one real PostgreSQL,
 * over real HTTP, the second (an application context of its own in this JVM) with a clock
 * {@value #SKEW_MINUTES} minutes ahead of or behind the first's, far more than the 6 s
 * lease. A lease is judged by the database's clock, so neither instance takes over the
 * other's live lease (no second provider call; the first client gets its 201), and either
 * takes over a lease that has really ended. The simulated provider answers 3 s after
 * writing a new charge, so a request is still in flight when the other instance sees its
 * key.
 */
@Tag("system")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "payonce.gateway.simulator.delay-after-charge=3s", "payonce.gateway.simulator.timeout=4s",
				"payonce.reconciliation.lease-margin=1s", "payonce.idempotency.lease=6s" })
@Import(TestcontainersConfiguration.class)
class ClockSkewIntegrationTests {

	static final int SKEW_MINUTES = 10;

	private static @Nullable ConfigurableApplicationContext skewed;

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	JdbcConnectionDetails database;

	@Autowired
	MeterRegistry meters;

	private PaymentsApi api;

	private PaymentsApi skewedApi;

	private OffsetClock skewedClock;

	private MeterRegistry skewedMeters;

	private Duration skew = Duration.ZERO;

	@BeforeEach
	void startSkewedInstance() {
		if (skewed == null) {
			skewed = new SpringApplicationBuilder(PayonceApplication.class, OffsetClock.Installed.class).run(
					"--server.port=0", "--spring.datasource.url=" + this.database.getJdbcUrl(),
					"--spring.datasource.username=" + this.database.getUsername(),
					"--spring.datasource.password=" + Objects.requireNonNullElse(this.database.getPassword(), ""),
					"--spring.datasource.hikari.maximum-pool-size=2",
					"--payonce.gateway.simulator.delay-after-charge=3s", "--payonce.gateway.simulator.timeout=4s",
					"--payonce.reconciliation.lease-margin=1s", "--payonce.idempotency.lease=6s");
		}
		this.api = new PaymentsApi(this.port);
		this.skewedApi = new PaymentsApi(((WebServerApplicationContext) skewed).getWebServer().getPort());
		this.skewedClock = skewed.getBean(OffsetClock.class);
		this.skewedMeters = skewed.getBean(MeterRegistry.class);
	}

	@AfterEach
	void resetSkew() {
		this.skewedClock.advance(this.skew.negated());
	}

	@AfterAll
	static void stopSkewedInstance() {
		if (skewed != null) {
			skewed.close();
			skewed = null;
		}
	}

	@Test
	void anInstanceAheadNeverTakesOverALiveLease() throws Exception {
		skew(Duration.ofMinutes(SKEW_MINUTES));

		InFlight first = InFlight.start(this.api, "ahead");
		await().atMost(Duration.ofSeconds(10)).until(() -> ledgerRows(first.key) == 1);
		double takeovers = new MeterReadings(this.skewedMeters).claims("takeover");
		long skewedCharges = skewedChargeCalls();
		Reply meanwhile = this.skewedApi.pay(first.key, first.body);
		Reply answer = first.reply();
		Reply replay = this.skewedApi.pay(first.key, first.body);

		assertThat(meanwhile.status()).isEqualTo(409);
		assertThat(meanwhile.problemType()).endsWith("/idempotency-request-in-progress");
		assertThat(answer.status()).isEqualTo(201);
		assertThat(answer.header("Idempotent-Replayed")).isEmpty();
		assertThat(replay.body()).isEqualTo(answer.body());
		assertThat(new MeterReadings(this.skewedMeters).claims("takeover") - takeovers).isZero();
		assertThat(skewedChargeCalls() - skewedCharges).isZero();
		assertThat(attempt(first.key)).isEqualTo(1);
		assertThat(ledgerRows(first.key)).isEqualTo(1);
	}

	@Test
	void anInstanceBehindIsNeverTakenOverWhileItsLeaseIsLive() throws Exception {
		skew(Duration.ofMinutes(-SKEW_MINUTES));

		InFlight first = InFlight.start(this.skewedApi, "behind");
		await().atMost(Duration.ofSeconds(10)).until(() -> ledgerRows(first.key) == 1);
		double takeovers = new MeterReadings(this.meters).claims("takeover");
		long charges = new MeterReadings(this.meters).providerCalls("charge", "approved");
		Reply meanwhile = this.api.pay(first.key, first.body);
		Reply answer = first.reply();
		Reply replay = this.api.pay(first.key, first.body);

		assertThat(meanwhile.status()).isEqualTo(409);
		assertThat(answer.status()).isEqualTo(201);
		assertThat(answer.header("Idempotent-Replayed")).isEmpty();
		assertThat(replay.body()).isEqualTo(answer.body());
		assertThat(new MeterReadings(this.meters).claims("takeover") - takeovers).isZero();
		assertThat(new MeterReadings(this.meters).providerCalls("charge", "approved") - charges).isZero();
		assertThat(attempt(first.key)).isEqualTo(1);
		assertThat(ledgerRows(first.key)).isEqualTo(1);
	}

	@Test
	void aLeaseThatHasEndedIsTakenOverByAnInstanceEitherSideOfTheDatabasesClock() {
		List<String> keys = new ArrayList<>();
		List<Reply> takeovers = new ArrayList<>();
		for (Duration each : List.of(Duration.ofMinutes(-SKEW_MINUTES), Duration.ofMinutes(SKEW_MINUTES))) {
			skew(each);
			String key = "ended-" + UUID.randomUUID();
			seedClaimWhoseHolderDied(key);

			takeovers.add(this.skewedApi.pay(key, PaymentsApi.paymentBody(key, 700, "ILS")));
			keys.add(key);
		}

		assertThat(takeovers).allSatisfy((reply) -> {
			assertThat(reply.status()).isEqualTo(201);
			assertThat(reply.header("Idempotent-Replayed")).isEmpty();
		});
		assertThat(keys).allSatisfy((key) -> {
			assertThat(attempt(key)).isEqualTo(2);
			assertThat(ledgerRows(key)).isEqualTo(1);
		});
	}

	/**
	 * A claim whose holder died before it called the provider: a PENDING payment and an
	 * IN_PROGRESS record whose lease ended a second ago by the database's clock.
	 */
	private void seedClaimWhoseHolderDied(String key) {
		UUID paymentId = UUID.randomUUID();
		PaymentCommand command = new PaymentCommand(SecurityProperties.DevClient.ID, new IdempotencyKey(key), key,
				new Money(700, Currency.getInstance("ILS")), PaymentCommand.DEFAULT_PAYMENT_METHOD);
		this.jdbc.sql("""
				INSERT INTO payments (id, client_id, order_id, amount, currency, payment_method, status,
				    created_at, updated_at, version)
				VALUES (?, ?, ?, 700, 'ILS', ?, 'PENDING', now(), now(), 0)""")
			.params(paymentId, command.clientId().value(), key, command.paymentMethod())
			.update();
		this.jdbc.sql("""
				INSERT INTO idempotency_records (scope, idempotency_key, operation, request_fingerprint, status,
				    locked_until, attempt, resource_id, created_at)
				VALUES (?, ?, 'payment', ?, 'IN_PROGRESS', now() - INTERVAL '1 second', 1, ?, now())""")
			.params(command.clientId().value(), key, command.fingerprint().sha256Hex(), paymentId)
			.update();
	}

	private void skew(Duration skew) {
		this.skewedClock.advance(skew.minus(this.skew));
		this.skew = skew;
	}

	private long skewedChargeCalls() {
		MeterReadings readings = new MeterReadings(this.skewedMeters);
		return readings.providerCalls("charge", "approved") + readings.providerCalls("charge", "declined")
				+ readings.providerCalls("charge", "unknown");
	}

	private int attempt(String key) {
		return this.jdbc.sql("SELECT attempt FROM idempotency_records WHERE idempotency_key = ?")
			.param(key)
			.query(Integer.class)
			.single();
	}

	private long ledgerRows(String key) {
		return this.jdbc.sql("""
				SELECT count(*) FROM simulated_provider_charges c
				JOIN idempotency_records r ON c.provider_idempotency_key = 'payonce-payment-' || r.resource_id
				WHERE r.idempotency_key = ?""").param(key).query(Long.class).single();
	}

	/** A payment request sent on its own thread, still in flight until {@link #reply}. */
	private record InFlight(String key, String body, ExecutorService thread, Future<Reply> future) {

		static InFlight start(PaymentsApi api, String prefix) {
			String key = prefix + "-" + UUID.randomUUID();
			String body = PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 7100, "ILS");
			ExecutorService thread = Executors.newSingleThreadExecutor();
			return new InFlight(key, body, thread, thread.submit(() -> api.pay(key, body)));
		}

		Reply reply() throws Exception {
			try {
				return this.future.get(20, TimeUnit.SECONDS);
			}
			finally {
				this.thread.shutdownNow();
			}
		}

	}

}
