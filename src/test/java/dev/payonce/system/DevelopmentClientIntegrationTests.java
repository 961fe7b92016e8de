package dev.payonce.system;

import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.PayonceApplication;
import dev.payonce.TestCredentials;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;

import static org.assertj.core.api.Assertions.assertThat;
import dev.payonce.client.SecurityProperties;

/**
 * The README's path for a new user: start with the {@code local} profile once, then start
 * production-like on the same database. The published development key must not outlive
 * the process that enabled it, whatever that process left in the database.
 */
@Tag("system")
@SpringBootTest
@Import(TestcontainersConfiguration.class)
@ExtendWith(OutputCaptureExtension.class)
class DevelopmentClientIntegrationTests {

	private static final String BODY = "{\"orderId\":\"order-dev\",\"amount\":1200,\"currency\":\"ILS\"}";

	@Autowired
	JdbcConnectionDetails database;

	@Autowired
	JdbcClient jdbc;

	@AfterEach
	void reinstateDevelopmentKeyForOtherTests() {
		this.jdbc.sql("UPDATE api_keys SET revoked_at = NULL WHERE client_id = :id")
			.param("id", SecurityProperties.DevClient.ID.value())
			.update();
	}

	@Test
	void refusesDevelopmentKeyAfterLocalRunWhenStartedWithoutTheFlag(CapturedOutput output) {
		try (ConfigurableApplicationContext local = start("local", "--payonce.security.dev-client.enabled=true")) {
			assertThat(pay(local).status()).isEqualTo(201);
		}

		try (ConfigurableApplicationContext production = start("default",
				"--payonce.security.dev-client.enabled=false")) {
			PaymentsApi.Reply reply = pay(production);

			assertThat(reply.status()).isEqualTo(401);
			assertThat(reply.problemType()).isEqualTo("https://payonce.dev/problems/unauthorized");
			assertThat(output.getAll()).contains("The development client cli_development was disabled");
			assertThat(this.jdbc.sql("SELECT count(*) FROM api_keys WHERE client_id = :id AND revoked_at IS NULL")
				.param("id", SecurityProperties.DevClient.ID.value())
				.query(Long.class)
				.single()).isZero();
		}
	}

	@Test
	void reinstatesDevelopmentKeyWhenStartedWithTheFlagAgain() {
		try (ConfigurableApplicationContext production = start("default",
				"--payonce.security.dev-client.enabled=false")) {
			assertThat(pay(production).status()).isEqualTo(401);
		}

		try (ConfigurableApplicationContext local = start("local", "--payonce.security.dev-client.enabled=true")) {
			assertThat(pay(local).status()).isEqualTo(201);
		}
	}

	private PaymentsApi.Reply pay(ConfigurableApplicationContext context) {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		return new PaymentsApi(port, TestCredentials.DEV_KEY).pay("dev-" + UUID.randomUUID(), BODY);
	}

	private ConfigurableApplicationContext start(String profile, String devClientFlag) {
		return new SpringApplicationBuilder(PayonceApplication.class).profiles(profile)
			.run("--server.port=0", "--spring.datasource.url=" + this.database.getJdbcUrl(),
					"--spring.datasource.username=" + this.database.getUsername(),
					"--spring.datasource.password="
							+ ((this.database.getPassword() != null) ? this.database.getPassword() : ""),
					"--spring.datasource.hikari.maximum-pool-size=2", "--payonce.reconciliation.enabled=false",
					"--payonce.idempotency.cleanup.enabled=false", devClientFlag);
	}

}
