package dev.payonce;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;

import static org.awaitility.Awaitility.await;

/**
 * The packaged Payonce jar running as a real operating-system process on a free port, for
 * tests that stop it with SIGTERM or kill it with SIGKILL. Its output goes to
 * {@code target/processes/<name>.log}.
 */
public final class PayonceProcess implements AutoCloseable {

	private final String name;

	private final Process process;

	private final int port;

	private final Path log;

	private PayonceProcess(String name, Process process, int port, Path log) {
		this.name = name;
		this.process = process;
		this.port = port;
		this.log = log;
	}

	/**
	 * Starts the jar named by the {@code payonce.jar} system property (set by Failsafe)
	 * with the JDK that runs the tests, the test's database, a pool of at most 2
	 * connections and the given settings; does not wait for it to be ready.
	 * @param name a short name for logs
	 * @param database the database the tests use
	 * @param settings {@code payonce.*} and other Spring properties
	 * @return the started process
	 */
	public static PayonceProcess start(String name, JdbcConnectionDetails database, Map<String, String> settings)
			throws IOException {
		String jar = System.getProperty("payonce.jar");
		if (jar == null || !Files.isRegularFile(Path.of(jar))) {
			throw new IllegalStateException("Run with Failsafe after package: payonce.jar is " + jar);
		}
		int port = freePort();
		// The JDK running the tests: the one Maven's toolchain selected for Failsafe.
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
				"-jar", jar, "--server.port=" + port));
		Map<String, String> all = new HashMap<>(
				Map.of("payonce.security.dev-client.enabled", "true", "payonce.security.admin-token",
						TestCredentials.ADMIN_TOKEN, "payonce.security.rate-limit.requests-per-second", "1000000",
						"payonce.security.rate-limit.burst", "1000000"));
		all.putAll(settings);
		all.forEach((key, value) -> command.add("--" + key + "=" + value));
		Path log = Path.of("target", "processes", name + ".log");
		Files.createDirectories(log.getParent());
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
		Map<String, String> environment = builder.environment();
		environment.put("SPRING_DATASOURCE_URL", database.getJdbcUrl());
		environment.put("SPRING_DATASOURCE_USERNAME", database.getUsername());
		environment.put("SPRING_DATASOURCE_PASSWORD", (database.getPassword() != null) ? database.getPassword() : "");
		environment.put("SPRING_DATASOURCE_HIKARI_MAXIMUM_POOL_SIZE", "2");
		environment.put("SPRING_DATASOURCE_HIKARI_MINIMUM_IDLE", "0");
		return new PayonceProcess(name, builder.start(), port, log);
	}

	/**
	 * Waits until the process answers HTTP.
	 * @return this process
	 * @throws IllegalStateException if it exits first
	 */
	public PayonceProcess awaitReady() {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
		// 404 as the development client: up, and the client exists.
		HttpRequest probe = HttpRequest.newBuilder(URI.create(baseUrl() + "/payments/" + UUID.randomUUID()))
			.header("Authorization", "Bearer " + TestCredentials.DEV_KEY)
			.timeout(Duration.ofSeconds(2))
			.build();
		await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() -> {
			if (!this.process.isAlive()) {
				throw new IllegalStateException(
						this.name + " exited with " + this.process.exitValue() + "; see " + this.log);
			}
			try {
				return http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 404;
			}
			catch (IOException ex) {
				return false;
			}
		});
		return this;
	}

	/**
	 * Sends SIGTERM, as an orchestrator stopping the instance does, and returns at once.
	 */
	public void terminate() {
		this.process.destroy();
	}

	/** Kills the process with SIGKILL and waits for it to be gone. */
	public void kill() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(30, TimeUnit.SECONDS);
	}

	/**
	 * Waits for the process to exit by itself.
	 * @return its exit code
	 */
	public int awaitExit(Duration timeout) throws InterruptedException {
		if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new IllegalStateException(this.name + " did not exit within " + timeout);
		}
		return this.process.exitValue();
	}

	public String log() throws IOException {
		return Files.readString(this.log);
	}

	public int port() {
		return this.port;
	}

	public String baseUrl() {
		return "http://localhost:" + this.port;
	}

	@Override
	public void close() throws InterruptedException {
		if (this.process.isAlive()) {
			kill();
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
