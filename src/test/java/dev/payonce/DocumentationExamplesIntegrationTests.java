package dev.payonce;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The examples of the README and the docs pages run as written against the running
 * service: {@code docs/walkthrough.sh} reads every {@code bash} block a page marks with
 * {@code <!-- walkthrough: STATUSES -->}, runs it with curl against the application on a
 * random port (the address, the development key and the admin token of this test run in
 * place of the published ones) and requires exactly those statuses, then walks the rest
 * of the contract. Needs {@code bash} and {@code curl} 7.84 or newer, as the pages do.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class DocumentationExamplesIntegrationTests {

	@LocalServerPort
	int port;

	@Test
	void everyMarkedExampleOfThePagesAnswersAsTheyShow() throws IOException, InterruptedException {
		Path output = Files.createTempFile("walkthrough", ".txt");
		try {
			ProcessBuilder walkthrough = new ProcessBuilder("bash", "docs/walkthrough.sh").redirectErrorStream(true)
				.redirectOutput(output.toFile());
			walkthrough.environment().put("PAYONCE_URL", "http://localhost:" + this.port);
			walkthrough.environment().put("PAYONCE_API_KEY", TestCredentials.DEV_KEY);
			walkthrough.environment().put("PAYONCE_ADMIN_TOKEN", TestCredentials.ADMIN_TOKEN);

			Process process = walkthrough.start();
			boolean ended = process.waitFor(5, TimeUnit.MINUTES);
			if (!ended) {
				process.destroyForcibly();
			}

			String printed = Files.readString(output, StandardCharsets.UTF_8);
			assertThat(ended).as("the walk-through ended within 5 minutes").isTrue();
			assertThat(printed).as(printed).contains("README.md block 1: 201 201 422");
			assertThat(printed).as(printed)
				.doesNotContain("FAIL")
				.contains("Every step answered as the contract says.");
			assertThat(process.exitValue()).as(printed).isZero();
		}
		finally {
			Files.deleteIfExists(output);
		}
	}

}
