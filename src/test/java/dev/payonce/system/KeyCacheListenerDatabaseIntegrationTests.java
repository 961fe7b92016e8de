package dev.payonce.system;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.PayonceApplication;
import dev.payonce.TestCredentials;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * docs/design.md section 12, "Fail closed": an instance whose
 * {@code payonce.security.key-cache.listener-url} names another database on the same
 * PostgreSQL server (where {@code LISTEN} works, and a probe the listener sent itself
 * would come back) never trusts its API key cache: the probes its application pool sends
 * in the application's database never reach the listener. So it reports the listener
 * down, looks every key up in the database, and refuses a key whose client was disabled
 * through another instance at its first request.
 */
@Tag("system")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
@ExtendWith(OutputCaptureExtension.class)
class KeyCacheListenerDatabaseIntegrationTests {

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	JdbcConnectionDetails database;

	private String otherDatabase;

	private ConfigurableApplicationContext misdirected;

	private int misdirectedPort;

	@BeforeEach
	void startAnInstanceListeningToAnotherDatabase() {
		this.otherDatabase = "payonce_other_" + UUID.randomUUID().toString().substring(0, 8);
		this.jdbc.sql("CREATE DATABASE " + this.otherDatabase).update();
		URI target = URI.create(this.database.getJdbcUrl().substring("jdbc:".length()));
		String listenerUrl = "jdbc:postgresql://" + target.getHost() + ":" + target.getPort() + "/" + this.otherDatabase
				+ ((target.getQuery() != null) ? "?" + target.getQuery() : "");
		this.misdirected = new SpringApplicationBuilder(PayonceApplication.class).run("--server.port=0",
				"--spring.datasource.url=" + this.database.getJdbcUrl(),
				"--spring.datasource.username=" + this.database.getUsername(),
				"--spring.datasource.password=" + Objects.requireNonNullElse(this.database.getPassword(), ""),
				"--spring.datasource.hikari.maximum-pool-size=2",
				"--payonce.security.key-cache.listener-url=" + listenerUrl);
		this.misdirectedPort = ((WebServerApplicationContext) this.misdirected).getWebServer().getPort();
	}

	@AfterEach
	void stopIt() {
		this.misdirected.close();
		this.jdbc.sql("DROP DATABASE IF EXISTS " + this.otherDatabase + " WITH (FORCE)").update();
	}

	@Test
	void aListenerOnAnotherDatabaseIsNeverTrustedAndADisabledClientIsRefusedAtOnce(CapturedOutput output) {
		// The listener subscribed in the other database, and its first probe (sent by the
		// application's pool, in the application's database) did not come back.
		await().atMost(Duration.ofSeconds(20))
			.until(() -> output.getOut().contains("API key cache listener did not receive the probe"));
		PaymentsApi admin = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN);
		Reply created = admin.send(admin.request("/admin/clients")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"name\":\"read through a misdirected listener\"}")));
		String apiKey = created.field("apiKey");
		double hits = lookups("hit");
		double bypasses = lookups("bypass");

		int before = status(apiKey);
		int again = status(apiKey);
		Reply disabled = admin
			.send(admin.request("/admin/clients/" + created.field("id") + "/disable").POST(BodyPublishers.noBody()));
		int afterDisable = status(apiKey);

		assertThat(created.status()).isEqualTo(201);
		assertThat(before).isEqualTo(404);
		assertThat(again).isEqualTo(404);
		assertThat(disabled.status()).isEqualTo(200);
		assertThat(afterDisable).as("refused at the first request after the disable").isEqualTo(401);
		assertThat(lookups("hit")).as("nothing answered from the cache").isEqualTo(hits);
		assertThat(lookups("bypass") - bypasses).isEqualTo(3);
		assertThat(this.misdirected.getBean(MeterRegistry.class).get("payonce.key.cache.listener.up").gauge().value())
			.isZero();
	}

	private double lookups(String outcome) {
		return this.misdirected.getBean(MeterRegistry.class)
			.get("payonce.key.cache.lookups")
			.tag("outcome", outcome)
			.counter()
			.count();
	}

	/** A read with the key: 404 (an unknown payment) if it authenticates, else 401. */
	private int status(String apiKey) {
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://localhost:" + this.misdirectedPort + "/payments/" + UUID.randomUUID()))
			.header("Authorization", "Bearer " + apiKey)
			.timeout(Duration.ofSeconds(10))
			.build();
		try {
			return this.http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
		}
		catch (IOException ex) {
			throw new IllegalStateException("HTTP request failed: " + ex, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

}
