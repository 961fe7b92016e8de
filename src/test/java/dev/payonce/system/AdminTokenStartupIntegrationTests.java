package dev.payonce.system;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Tag;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

import dev.payonce.PayonceProcess;
import dev.payonce.TestcontainersConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged jar, started without the {@code local} profile, refuses to start with a
 * weak, misleading or published admin token and says why in Spring Boot's short failure
 * report, without printing the token (docs/design.md section 13).
 */
@Tag("system")
@SpringBootTest
@Import(TestcontainersConfiguration.class)
class AdminTokenStartupIntegrationTests {

	@Autowired
	JdbcConnectionDetails database;

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|',
			textBlock = """
					weak      | aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa | mostly repeat
					apikey    | sk_test_k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2jk3J9xQ2mV8p            | like an API key
					published | local-admin-token-for-development-only                           | the development token the README publishes
					sha256    | 8c6976e5b5410415bde908bd4dee15dfb167a9c873fc4bb8a81f6f2ab448a918 | hash of a dictionary word
					uuid      | 3f2b6c1e-8a4d-4f3b-9c2e-7d1a5b6c8e9f                             | is a UUID
					""")
	void refusesToStartWithAReadableReport(String name, String token, String reason) throws Exception {
		assertRefused(name, token, reason);
	}

	@org.junit.jupiter.api.Test
	void refusesATokenWithTheTrailingNewlineOfASecretFile() throws Exception {
		assertRefused("newline", "k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2jQ\n", "trailing whitespace");
	}

	private void assertRefused(String name, String token, String reason) throws Exception {
		try (PayonceProcess process = PayonceProcess.start("admin-token-" + name, this.database,
				Map.of("payonce.security.admin-token", token))) {
			int exitCode = process.awaitExit(Duration.ofSeconds(120));

			assertThat(exitCode).isNotZero();
			assertThat(process.log()).contains("APPLICATION FAILED TO START", "payonce.security.admin-token", reason)
				.doesNotContain(token.strip());
		}
	}

}
