package dev.payonce.benchmark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The benchmark's unauthenticated HTTP baseline is no part of the production jar: its
 * source ({@code src/bench/java}) is compiled only into the benchmark's own jar (the
 * {@code bench} Maven profile) and among the test classes, so no profile or setting can
 * open it where real money moves. The jar checked is the one this build packaged.
 */
class BaselineEndpointIntegrationTests {

	@Test
	void productionJarHoldsNoBenchmarkClass() throws IOException {
		Path jar = Path.of(System.getProperty("payonce.jar"));

		List<String> entries;
		try (JarFile file = new JarFile(jar.toFile())) {
			entries = Collections.list(file.entries()).stream().map(ZipEntry::getName).toList();
		}

		assertThat(entries).contains("BOOT-INF/classes/dev/payonce/PayonceApplication.class")
			.noneMatch((name) -> name.startsWith("BOOT-INF/classes/dev/payonce/benchmark/"));
	}

}
