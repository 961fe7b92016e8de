package dev.payonce.payment.web;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.gateway.simulator.SimulatorSettings;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Pool exhaustion (docs/design.md section 11): with a pool of two connections, 200
 * concurrent requests and a slow provider (1 s), Payonce sheds what it cannot serve with
 * {@code 503 service-unavailable} and {@code Retry-After} once a database step has waited
 * {@code spring.datasource.hikari.connection-timeout} (500 ms here) for a connection,
 * instead of queueing without limit; retries then resolve every key with one payment and
 * one charge. The lease is short (4 s) so that a key whose completion was shed is taken
 * over soon, and the retries meet a provider without latency: they prove every key
 * settles once, not the pool under a slow provider, which the first requests did.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.datasource.hikari.maximum-pool-size=2", "spring.datasource.hikari.minimum-idle=2",
				"spring.datasource.hikari.connection-timeout=500", "payonce.gateway.simulator.latency=1s",
				"payonce.gateway.simulator.timeout=2s", "payonce.reconciliation.lease-margin=1s",
				"payonce.idempotency.lease=4s" })
@Import(TestcontainersConfiguration.class)
@ExtendWith(OutputCaptureExtension.class)
class PoolExhaustionIntegrationTests {

	static final int REQUESTS = 200;

	static final Duration CONNECTION_TIMEOUT = Duration.ofMillis(500);

	/** Database steps of a payment that can each wait for a connection. */
	static final int DATABASE_STEPS = 5;

	/**
	 * Clients retrying at once, more than the pool's connections, so that retries are
	 * shed too.
	 */
	static final int RETRY_CLIENTS = 40;

	/**
	 * Time to answer beyond the waits themselves: 200 requests and their 200 clients
	 * share two cores (with other builds) in this test.
	 */
	static final Duration SLACK = Duration.ofSeconds(5);

	private static final Logger log = LoggerFactory.getLogger(PoolExhaustionIntegrationTests.class);

	@LocalServerPort
	int port;

	@Autowired
	DataSource dataSource;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	ApplicationContext context;

	PaymentsApi api;

	@BeforeEach
	void setUp() {
		this.api = new PaymentsApi(this.port);
	}

	@AfterEach
	void resetSimulator() {
		SimulatorSettings.of(this.context).reset();
	}

	@Test
	void anExhaustedPoolAnswers503WithRetryAfterWithinTheConnectionTimeout(CapturedOutput output) throws Exception {
		Map<String, String> keys = keys("held");
		List<Timed> answers;

		try (Connection first = this.dataSource.getConnection(); Connection second = this.dataSource.getConnection()) {
			answers = sendTogether(keys);
		}

		assertThat(answers).hasSize(REQUESTS).allSatisfy((answer) -> {
			assertThat(answer.reply().status()).isEqualTo(503);
			assertThat(answer.reply().problemType()).isEqualTo("https://payonce.dev/problems/service-unavailable");
			assertThat(answer.reply().header("Retry-After")).isPresent();
			assertThat(answer.elapsed()).isLessThan(CONNECTION_TIMEOUT.plus(SLACK));
		});
		log.info("Pool held: 200 answered 503, slowest after {}", slowest(answers));
		assertThat(output).as("shedding load is no bug").doesNotContain("\"level\":\"ERROR\"");
		assertThat(keys.keySet()).allSatisfy(
				(key) -> assertThat(count("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?", key))
					.isZero());
		assertEveryKeyResolvesOnRetry(keys);
	}

	@Test
	void aSlowProviderAnd200RequestsOnTwoConnectionsAnswerWithinTheBound(CapturedOutput output) throws Exception {
		Map<String, String> keys = keys("busy");

		List<Timed> answers = sendTogether(keys);

		assertThat(answers).hasSize(REQUESTS).allSatisfy((answer) -> {
			assertThat(answer.reply().status()).isIn(201, 503);
			if (answer.reply().status() == 503) {
				assertThat(answer.reply().header("Retry-After")).isPresent();
			}
		});
		assertThat(answers).allSatisfy((answer) -> assertThat(answer.elapsed())
			.isLessThan(Duration.ofSeconds(1).plus(CONNECTION_TIMEOUT.multipliedBy(DATABASE_STEPS)).plus(SLACK)));
		log.info("Pool of 2, 200 requests: {} answered 201, {} answered 503, slowest after {}",
				answers.stream().filter((answer) -> answer.reply().status() == 201).count(),
				answers.stream().filter((answer) -> answer.reply().status() == 503).count(), slowest(answers));
		assertThat(output).as("shedding load is no bug").doesNotContain("\"level\":\"ERROR\"");
		assertEveryKeyResolvesOnRetry(keys);
	}

	/**
	 * Retries every key from {@link #RETRY_CLIENTS} threads, each until it gets a
	 * {@code 201} (a retry may itself be shed, or meet a lease a shed completion left),
	 * then checks one payment and one charge per key.
	 */
	private void assertEveryKeyResolvesOnRetry(Map<String, String> keys) throws Exception {
		// 200 provider calls of 1 s from 40 clients would take 5 s at least.
		SimulatorSettings.of(this.context).latency(Duration.ZERO);
		ExecutorService clients = Executors.newFixedThreadPool(RETRY_CLIENTS);
		try {
			List<Future<?>> retries = new ArrayList<>();
			keys.forEach((key,
					body) -> retries.add(clients.submit(() -> await().atMost(Duration.ofSeconds(60))
						.pollInterval(Duration.ofMillis(200))
						.until(() -> this.api.pay(key, body).status() == 201))));
			for (Future<?> retry : retries) {
				retry.get(90, TimeUnit.SECONDS);
			}
		}
		finally {
			clients.shutdownNow();
		}
		for (String key : keys.keySet()) {
			assertThat(count("SELECT count(*) FROM payments WHERE order_id = ?", key)).as(key).isEqualTo(1);
			assertThat(count("""
					SELECT count(*) FROM simulated_provider_charges c JOIN payments p
					  ON c.provider_idempotency_key = 'payonce-payment-' || p.id
					WHERE p.order_id = ?""", key)).as(key).isEqualTo(1);
		}
	}

	private List<Timed> sendTogether(Map<String, String> keys) throws Exception {
		ExecutorService clients = Executors.newFixedThreadPool(keys.size());
		try {
			CountDownLatch go = new CountDownLatch(1);
			List<Future<Timed>> sent = new ArrayList<>();
			keys.forEach((key, body) -> sent.add(clients.submit(() -> {
				go.await();
				long started = System.nanoTime();
				Reply reply = this.api.pay(key, body);
				return new Timed(reply, Duration.ofNanos(System.nanoTime() - started));
			})));
			go.countDown();
			List<Timed> answers = new ArrayList<>();
			for (Future<Timed> answer : sent) {
				answers.add(answer.get(60, TimeUnit.SECONDS));
			}
			return answers;
		}
		finally {
			clients.shutdownNow();
		}
	}

	private static Duration slowest(List<Timed> answers) {
		return answers.stream().map(Timed::elapsed).max(Duration::compareTo).orElse(Duration.ZERO);
	}

	private long count(String sql, String value) {
		return this.jdbc.sql(sql).param(value).query(Long.class).single();
	}

	/** The order id is the idempotency key. */
	private static Map<String, String> keys(String prefix) {
		String run = UUID.randomUUID().toString().substring(0, 8);
		Map<String, String> keys = new LinkedHashMap<>();
		for (int i = 0; i < REQUESTS; i++) {
			String key = prefix + "-" + run + "-" + i;
			keys.put(key, """
					{"orderId":"%s","amount":%d,"currency":"ILS"}""".formatted(key, 100 + i));
		}
		return keys;
	}

	record Timed(Reply reply, Duration elapsed) {
	}

}
