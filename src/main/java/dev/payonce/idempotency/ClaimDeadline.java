package dev.payonce.idempotency;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;
import org.postgresql.Driver;
import org.postgresql.PGProperty;
import org.postgresql.util.PSQLException;

/**
 * How long a claim in one statement may run inside PostgreSQL (docs/design.md section 11,
 * "A claim never commits after its 503"): half the driver's {@code socketTimeout}. A
 * statement that runs in auto-commit commits as soon as it ends, whether or not its
 * client still waits for it; when the driver gives up on it after {@code socketTimeout},
 * the request answers 503, and the claim must not commit after that. So the statement
 * bounds its own waits: it sets {@code lock_timeout} to the deadline for itself alone
 * ({@code set_config(..., true)}: transaction-local, and an auto-committed statement is
 * its own transaction; PostgreSQL reads the setting each time a lock wait begins,
 * https://www.postgresql.org/docs/current/runtime-config-client.html#GUC-LOCK-TIMEOUT),
 * and, as its last step, aborts itself if more than the deadline has passed since it
 * arrived ({@code clock_timestamp()} against {@code statement_timestamp()},
 * https://www.postgresql.org/docs/current/functions-datetime.html#FUNCTIONS-DATETIME-CURRENT).
 * The other half of the socket timeout is left for the commit and the answer's way back.
 *
 * @param bound the deadline; empty when the driver has no socket timeout (it then never
 * gives up on a statement, and no bound is set)
 */
record ClaimDeadline(Optional<Duration> bound) {

	/** The shortest socket timeout that leaves a claim a useful deadline (1 s). */
	static final int MINIMUM_SOCKET_TIMEOUT_SECONDS = 2;

	/**
	 * The deadline for claims made through {@code dataSource}, from the PostgreSQL
	 * driver's {@code socketTimeout} as the Hikari pool configures it (its data source
	 * properties, overridden by a parameter in the JDBC URL, as the driver reads them).
	 * @param dataSource the application's data source; for a pool other than Hikari the
	 * socket timeout cannot be read and no bound is set
	 * @return half the socket timeout, or none if it is 0 (none)
	 * @throws IllegalStateException if the socket timeout is below
	 * {@value #MINIMUM_SOCKET_TIMEOUT_SECONDS} s or not a number, naming the setting
	 */
	static ClaimDeadline of(DataSource dataSource) {
		HikariDataSource hikari = hikari(dataSource);
		if (hikari == null) {
			return new ClaimDeadline(Optional.empty());
		}
		Properties settings = new Properties();
		settings.putAll(hikari.getDataSourceProperties());
		return forSocketTimeout(socketTimeoutSeconds(hikari.getJdbcUrl(), settings));
	}

	/**
	 * The deadline for a socket timeout.
	 * @param socketTimeoutSeconds the driver's {@code socketTimeout}, 0 for none
	 * @return half of it, or none for 0
	 * @throws IllegalStateException if it is negative or below
	 * {@value #MINIMUM_SOCKET_TIMEOUT_SECONDS}
	 */
	static ClaimDeadline forSocketTimeout(int socketTimeoutSeconds) {
		if (socketTimeoutSeconds == 0) {
			return new ClaimDeadline(Optional.empty());
		}
		if (socketTimeoutSeconds < MINIMUM_SOCKET_TIMEOUT_SECONDS) {
			throw new IllegalStateException("The PostgreSQL driver's socketTimeout (" + socketTimeoutSeconds
					+ " s, spring.datasource.hikari.data-source-properties.socketTimeout or the JDBC URL) must be 0 "
					+ "(none) or at least " + MINIMUM_SOCKET_TIMEOUT_SECONDS + " s: a claim may run for half of it "
					+ "inside PostgreSQL, and must end before the driver gives up on it (docs/design.md section 11)");
		}
		return new ClaimDeadline(Optional.of(Duration.ofSeconds(socketTimeoutSeconds).dividedBy(2)));
	}

	/**
	 * The driver's {@code socketTimeout} in seconds: a parameter of the JDBC URL, else
	 * the pool's data source property, else the driver's default (0).
	 */
	static int socketTimeoutSeconds(@Nullable String jdbcUrl, Properties settings) {
		Properties merged = (jdbcUrl != null) ? Driver.parseURL(jdbcUrl, settings) : settings;
		try {
			return PGProperty.SOCKET_TIMEOUT.getInt(Objects.requireNonNullElse(merged, settings));
		}
		catch (PSQLException ex) {
			throw new IllegalStateException("The PostgreSQL driver's socketTimeout is not a whole number of seconds "
					+ "(spring.datasource.hikari.data-source-properties.socketTimeout or the JDBC URL)");
		}
	}

	private static @Nullable HikariDataSource hikari(DataSource dataSource) {
		try {
			return dataSource.isWrapperFor(HikariDataSource.class) ? dataSource.unwrap(HikariDataSource.class) : null;
		}
		catch (SQLException ex) {
			return null;
		}
	}

}
