package dev.payonce.system;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.PayonceProcess;

/**
 * A start-up refusal is readable on the console as plain text even though production logs
 * are JSON: the packaged jar, started as an operator would, prints the setting to change
 * on a line of its own.
 */
@Tag("system")
@SpringBootTest
@Import(TestcontainersConfiguration.class)
class StartupRefusalIntegrationTests {

	@Autowired
	JdbcConnectionDetails database;

	@Test
	void printsMissingAdminTokenAsPlainTextWithJsonLogs() throws Exception {
		String log = refusedStartLog("refusal-admin-token",
				Map.of("payonce.security.admin-token", "", "payonce.security.dev-client.enabled", "false"));

		assertThat(log).contains("\"@timestamp\"")
			.containsPattern("(?m)^APPLICATION FAILED TO START$")
			.containsPattern("(?m)^payonce\\.security\\.admin-token is required outside the local profile");
	}

	@Test
	void printsLeaseGuardRefusalAsPlainTextWithJsonLogs() throws Exception {
		String log = refusedStartLog("refusal-lease", Map.of("payonce.idempotency.lease", "1s"));

		assertThat(log).containsPattern("(?m)^APPLICATION FAILED TO START$")
			.containsPattern("(?m)^payonce\\.idempotency\\.lease \\(PT1S\\) must be longer than");
	}

	@Test
	void refusesAPoolWithAutoCommitOffNamingTheSetting() throws Exception {
		String log = refusedStartLog("refusal-auto-commit", Map.of("spring.datasource.hikari.auto-commit", "false"));

		assertThat(log).containsPattern("(?m)^APPLICATION FAILED TO START$")
			.containsPattern("(?m)^spring\\.datasource\\.hikari\\.auto-commit=false is not supported")
			.contains("SPRING_DATASOURCE_HIKARI_AUTO_COMMIT")
			.doesNotContain("\tat ");
	}

	/**
	 * Starts the packaged jar with {@code settings}, asserts it exits non-zero, returns
	 * its log.
	 */
	private String refusedStartLog(String name, Map<String, String> settings) throws Exception {
		try (PayonceProcess process = PayonceProcess.start(name, this.database, settings)) {
			int exit = process.awaitExit(Duration.ofSeconds(120));

			assertThat(exit).isNotZero();
			return process.log();
		}
	}

}
