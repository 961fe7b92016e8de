package io.payonce.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import static org.awaitility.Awaitility.await;

/**
 * The packaged Payonce jar (the {@code payonce.jar} system property, set by Failsafe to
 * the root build's {@code target/} jar) running as a real process on a free port, with
 * the simulator as its provider, on real PostgreSQL found as the service's own tests find
 * it: the server named by {@code PAYONCE_TEST_DATABASE_URL} (with
 * {@code PAYONCE_TEST_DATABASE_USERNAME}, default {@code postgres}, and
 * {@code PAYONCE_TEST_DATABASE_PASSWORD}), otherwise an embedded PostgreSQL started from
 * Maven artifacts. One per test JVM, stopped when the JVM exits. Authenticates as the
 * development client, which the test settings turn on.
 */
final class PayonceService {

	/** The development client's published test key. */
	static final String DEV_KEY = "sk_test_LocalDevelopmentKeyDoNotUseInProduction0000";

	private static final String ADMIN_TOKEN = "client-proof-admin-token-Q8w2Zr5Tn1Vb7Xk4Mc9Hs3Jd";

	private static PayonceService shared;

	private final Process process;

	private final String baseUrl;

	private final String jdbcUrl;

	private final String username;

	private final String password;

	private PayonceService(Process process, String baseUrl, String jdbcUrl, String username, String password) {
		this.process = process;
		this.baseUrl = baseUrl;
		this.jdbcUrl = jdbcUrl;
		this.username = username;
		this.password = password;
	}

	static synchronized PayonceService shared() {
		if (shared == null) {
			shared = start();
		}
		return shared;
	}

	String baseUrl() {
		return this.baseUrl;
	}

	/**
	 * Runs a counting query on the service's database.
	 * @param sql a query of one {@code bigint}
	 * @param parameters its parameters
	 * @return the count
	 */
	long count(String sql, Object... parameters) {
		try (Connection connection = DriverManager.getConnection(this.jdbcUrl, this.username, this.password);
				PreparedStatement statement = connection.prepareStatement(sql)) {
			for (int i = 0; i < parameters.length; i++) {
				statement.setObject(i + 1, parameters[i]);
			}
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				return result.getLong(1);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not query the service's database", ex);
		}
	}

	private static PayonceService start() {
		String jar = System.getProperty("payonce.jar");
		if (jar == null || !Files.isRegularFile(Path.of(jar))) {
			throw new IllegalStateException("The proof starts the packaged service, and " + jar + " is missing:"
					+ " run ./mvnw verify (or ./mvnw package) at the repository root first");
		}
		String url = System.getenv("PAYONCE_TEST_DATABASE_URL");
		String username;
		String password;
		if (url != null && !url.isBlank()) {
			username = env("PAYONCE_TEST_DATABASE_USERNAME", "postgres");
			password = env("PAYONCE_TEST_DATABASE_PASSWORD", "");
			System.out.println("Test PostgreSQL: the external server named by PAYONCE_TEST_DATABASE_URL");
		}
		else {
			EmbeddedPostgres postgres = embedded();
			url = "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
			username = "postgres";
			password = "";
			System.out.println("Test PostgreSQL: embedded PostgreSQL (no PAYONCE_TEST_DATABASE_URL)");
		}
		try {
			int port = freePort();
			String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
			List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
					"-Xmx384m", "-jar", jar, "--server.port=" + port));
			Map.of("payonce.security.dev-client.enabled", "true", "payonce.security.admin-token", ADMIN_TOKEN,
					"payonce.security.rate-limit.requests-per-second", "1000000", "payonce.security.rate-limit.burst",
					"1000000", "payonce.security.read-limit.per-client", "1000000", "payonce.security.read-limit.total",
					"1000000", "payonce.reconciliation.enabled", "false")
				.forEach((key, value) -> command.add("--" + key + "=" + value));
			Path log = Path.of("target", "processes", "payonce.log");
			Files.createDirectories(log.getParent());
			ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
			builder.environment().put("SPRING_DATASOURCE_URL", url);
			builder.environment().put("SPRING_DATASOURCE_USERNAME", username);
			builder.environment().put("SPRING_DATASOURCE_PASSWORD", password);
			builder.environment().put("SPRING_DATASOURCE_HIKARI_MAXIMUM_POOL_SIZE", "8");
			builder.environment().put("SPRING_DATASOURCE_HIKARI_MINIMUM_IDLE", "0");
			Process process = builder.start();
			Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
			PayonceService service = new PayonceService(process, "http://127.0.0.1:" + port, url, username, password);
			service.awaitReady(log);
			return service;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the service", ex);
		}
	}

	private void awaitReady(Path log) {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
		// 404 as the development client: up, migrated, and the client exists.
		HttpRequest probe = HttpRequest.newBuilder(URI.create(this.baseUrl + "/payments/" + UUID.randomUUID()))
			.header("Authorization", "Bearer " + DEV_KEY)
			.timeout(Duration.ofSeconds(2))
			.build();
		await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() -> {
			if (!this.process.isAlive()) {
				throw new IllegalStateException("The service exited with " + this.process.exitValue() + "; see " + log);
			}
			try {
				return http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 404;
			}
			catch (IOException ex) {
				return false;
			}
		});
	}

	private static EmbeddedPostgres embedded() {
		try {
			EmbeddedPostgres postgres = EmbeddedPostgres.builder()
				.setServerConfig("max_connections", "40")
				.setServerConfig("fsync", "off")
				.start();
			Runtime.getRuntime().addShutdownHook(new Thread(() -> {
				try {
					postgres.close();
				}
				catch (IOException ex) {
					// The JVM is exiting; the data folder is a temporary one.
				}
			}));
			return postgres;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the embedded PostgreSQL", ex);
		}
	}

	private static String env(String name, String fallback) {
		String value = System.getenv(name);
		return (value != null) ? value : fallback;
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
