package dev.payonce;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.stream.Stream;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jspecify.annotations.Nullable;

/**
 * A PostgreSQL server that one test owns and may stop and start again: the embedded
 * binaries of {@link EmbeddedDatabase} on a data folder of its own under
 * {@code target/owned-postgres/} and a fixed port, so that a restarted server is the same
 * server to the application (same address, same data). Never the suite's shared server,
 * never a server named by {@code PAYONCE_TEST_DATABASE_URL}: stopping those would break
 * other tests.
 *
 * <p>
 * The port is {@code PAYONCE_OWNED_POSTGRES_PORT} when set (for a machine where each user
 * has a port range), otherwise a free port chosen at construction. {@link #stop()} is a
 * {@code pg_ctl stop -m fast}: the server ends every session with {@code 57P01}
 * ({@code admin_shutdown}), rolls back their open transactions, and closes its port.
 */
public final class OwnedPostgres implements AutoCloseable {

	private final Path dataDirectory;

	private final int port;

	private @Nullable EmbeddedPostgres server;

	private OwnedPostgres(Path dataDirectory, int port) {
		this.dataDirectory = dataDirectory;
		this.port = port;
	}

	/**
	 * Creates a fresh data folder and starts the server on it.
	 * @param name a short name for the data folder
	 * @return the running server
	 */
	public static OwnedPostgres start(String name) {
		try {
			Path directory = Files.createDirectories(Path.of("target", "owned-postgres"))
				.resolve(name + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime())
				.toAbsolutePath();
			OwnedPostgres postgres = new OwnedPostgres(directory, choosePort());
			postgres.startAgain();
			return postgres;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Starts the server on the same data folder and port; initialises the folder on first
	 * use. Waits until it accepts connections.
	 */
	public synchronized void startAgain() {
		if (this.server != null) {
			throw new IllegalStateException("The owned PostgreSQL is running already");
		}
		try {
			this.server = EmbeddedPostgres.builder()
				.setDataDirectory(this.dataDirectory)
				.setCleanDataDirectory(false)
				.setPort(this.port)
				.setServerConfig("max_connections", "40")
				.setServerConfig("fsync", "off")
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the owned PostgreSQL in " + this.dataDirectory, ex);
		}
	}

	/**
	 * Stops the server with a fast shutdown and waits for it to be gone (at most the
	 * embedded library's 5 seconds).
	 */
	public synchronized void stop() {
		if (this.server == null) {
			return;
		}
		try {
			this.server.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		finally {
			this.server = null;
		}
	}

	/**
	 * The server's database {@code postgres}; the URL names the application so that its
	 * sessions can be told apart in {@code pg_stat_activity}.
	 * @param applicationName the sessions' {@code application_name}
	 * @return the JDBC URL
	 */
	public String jdbcUrl(String applicationName) {
		return "jdbc:postgresql://localhost:" + this.port + "/postgres?ApplicationName=" + applicationName;
	}

	/**
	 * A connection of the test's own, as the superuser.
	 * @return a new connection
	 */
	public Connection connect() throws SQLException {
		return DriverManager.getConnection(jdbcUrl("payonce-test-observer"), "postgres", "");
	}

	public int port() {
		return this.port;
	}

	/** Stops the server and deletes its data folder. */
	@Override
	public void close() throws IOException {
		stop();
		if (Files.exists(this.dataDirectory)) {
			try (Stream<Path> files = Files.walk(this.dataDirectory)) {
				files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
			}
		}
	}

	private static int choosePort() throws IOException {
		String configured = System.getenv("PAYONCE_OWNED_POSTGRES_PORT");
		if (configured != null && !configured.isBlank()) {
			return Integer.parseInt(configured.strip());
		}
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
