package dev.payonce;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's run command, {@code ./mvnw spring-boot:test-run}, starts the one main
 * class of the test classes; the Spring Boot Maven plugin refuses to choose when there
 * are two (docs/running.md). A program the scripts run from the test classes is launched
 * from a source file of its own instead (for example
 * {@code deploy/cluster/HistoryCheck.java}).
 */
class RunCommandTests {

	private static final Pattern MAIN = Pattern.compile("static\\s+void\\s+main\\s*\\(");

	@Test
	void theTestClassesHoldOneMainClassTheRunCommandStarts() throws IOException {
		List<String> mains;
		try (Stream<Path> files = Files.walk(Paths.get("src/test/java"))) {
			mains = files.filter((file) -> file.toString().endsWith(".java"))
				.filter(RunCommandTests::declaresMain)
				.map((file) -> file.getFileName().toString())
				.toList();
		}

		assertThat(mains).containsExactly("TestPayonceApplication.java");
	}

	private static boolean declaresMain(Path file) {
		try {
			return MAIN.matcher(Files.readString(file)).find();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
