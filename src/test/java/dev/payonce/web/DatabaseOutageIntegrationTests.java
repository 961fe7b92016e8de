package dev.payonce.web;

import java.net.URI;
import java.net.http.HttpRequest.BodyPublishers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.payonce.OffsetClock;
import dev.payonce.TestCredentials;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real database outage at every stage of every endpoint: the application reaches
 * PostgreSQL through a {@link TcpProxy} the test cuts. Authentication, the claim, the
 * completion after a provider call, a read, the admin API and health all answer
 * {@code 503} (a problem with {@code Retry-After}, health {@code DOWN}); nothing logs a
 * bug. Runs on whichever database the tests use
 * ({@link TestcontainersConfiguration#database()}). The clock moves past the lease a cut
 * completion left, as a client retrying later would find it.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.datasource.hikari.connection-timeout=1000",
				"spring.datasource.hikari.validation-timeout=500", "payonce.reconciliation.enabled=false",
				"payonce.idempotency.cleanup.enabled=false", "payonce.gateway.simulator.delay-after-charge=1s",
				// A short lease, so that the test's own retry settles its payment
				// after the outage instead of leaving it to another test's reconciler.
				"payonce.gateway.simulator.timeout=3s", "payonce.reconciliation.lease-margin=1s",
				"payonce.idempotency.lease=5s" })
@Import(OffsetClock.Installed.class)
@ExtendWith(OutputCaptureExtension.class)
class DatabaseOutageIntegrationTests {

	private static final String BODY = "{\"orderId\":\"order-outage\",\"amount\":1200,\"currency\":\"ILS\"}";

	/**
	 * The tests' database, whichever source it comes from; the proxy stands before it.
	 */
	private static final JdbcConnectionDetails TARGET = TestcontainersConfiguration.database();

	private static final URI DATABASE = URI.create(TARGET.getJdbcUrl().substring("jdbc:".length()));

	static final TcpProxy proxy = start();

	/** An ECS log line at ERROR. */
	private static final String ERROR_LINE = "\"level\":\"ERROR\"";

	/** The idempotency lease of this class's context. */
	private static final Duration LEASE = Duration.ofSeconds(5);

	@LocalServerPort
	int port;

	@Autowired
	OffsetClock clock;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", () -> "jdbc:postgresql://127.0.0.1:" + proxy.port() + DATABASE.getPath()
				+ ((DATABASE.getQuery() != null) ? "?" + DATABASE.getQuery() : ""));
		registry.add("spring.datasource.username", TARGET::getUsername);
		registry.add("spring.datasource.password", () -> Objects.requireNonNullElse(TARGET.getPassword(), ""));
	}

	@AfterEach
	void restore() {
		proxy.restore();
	}

	@Test
	void answersEveryEndpointWith503WhileTheDatabaseIsUnreachable(CapturedOutput output) {
		PaymentsApi api = new PaymentsApi(this.port);
		PaymentsApi admin = api.as(TestCredentials.ADMIN_TOKEN);
		await().atMost(Duration.ofSeconds(30)).until(() -> health(api).status() == 200);

		proxy.cut();

		assertOutage(api.pay("outage-" + UUID.randomUUID(), BODY));
		assertOutage(api.get("/payments/" + UUID.randomUUID()));
		assertOutage(admin.send(admin.request("/admin/clients").GET()));
		assertOutage(admin.send(admin.request("/admin/clients")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"name\":\"Outage\"}"))));
		Reply health = health(api);
		assertThat(health.status()).isEqualTo(503);
		assertThat(health.field("status")).isEqualTo("DOWN");
		assertThat(output.getAll()).doesNotContain(ERROR_LINE).doesNotContain(TestCredentials.DEV_KEY);
	}

	@Test
	void answersCompletionAfterTheProviderCallWith503WhenTheDatabaseGoesAway(CapturedOutput output) throws Exception {
		PaymentsApi api = new PaymentsApi(this.port);
		await().atMost(Duration.ofSeconds(30)).until(() -> health(api).status() == 200);
		String key = "outage-completion-" + UUID.randomUUID();
		CompletableFuture<Reply> reply = CompletableFuture.supplyAsync(() -> api.pay(key, BODY));
		// The claim is committed and the provider has charged; its answer takes 1s: cut
		// then, so only the completion meets the outage.
		await().atMost(Duration.ofSeconds(20)).until(() -> charged(key));

		proxy.cut();

		Reply answer = reply.get(30, TimeUnit.SECONDS);
		assertOutage(answer);
		assertThat(output.getAll()).doesNotContain(ERROR_LINE);

		// Once the database is back and the cut completion's lease has passed, a retry
		// with the same key completes the one charge.
		proxy.restore();
		this.clock.advance(LEASE, direct());
		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(500))
			.until(() -> api.pay(key, BODY).status() == 201);
		assertThat(charged(key)).isTrue();
	}

	private static void assertOutage(Reply reply) {
		assertThat(reply.status()).isEqualTo(503);
		assertThat(reply.header("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(reply.problemType()).isEqualTo("https://payonce.dev/problems/service-unavailable");
		assertThat(reply.header("Retry-After")).isPresent();
		// The request id is random base64url and may spell any word.
		assertThat(reply.bodyApartFromRequestId()).doesNotContainIgnoringCase("sql")
			.doesNotContainIgnoringCase("exception");
	}

	private static Reply health(PaymentsApi api) {
		return api.sendWithoutKey(api.request("/actuator/health").GET());
	}

	/** The database past the proxy. */
	private static JdbcClient direct() {
		return JdbcClient.create(new DriverManagerDataSource(TARGET.getJdbcUrl(), TARGET.getUsername(),
				Objects.requireNonNullElse(TARGET.getPassword(), "")));
	}

	/** Read past the proxy, straight from the database. */
	private static boolean charged(String key) throws Exception {
		try (Connection connection = DriverManager.getConnection(TARGET.getJdbcUrl(), TARGET.getUsername(),
				Objects.requireNonNullElse(TARGET.getPassword(), ""));
				PreparedStatement statement = connection.prepareStatement("""
						SELECT count(*) FROM idempotency_records r JOIN simulated_provider_charges c
						ON c.provider_idempotency_key = 'payonce-payment-' || r.resource_id
						WHERE r.idempotency_key = ?""")) {
			statement.setString(1, key);
			try (ResultSet rows = statement.executeQuery()) {
				return rows.next() && rows.getLong(1) == 1;
			}
		}
	}

	private static TcpProxy start() {
		try {
			return new TcpProxy(DATABASE.getHost(), (DATABASE.getPort() > 0) ? DATABASE.getPort() : 5432);
		}
		catch (java.io.IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
