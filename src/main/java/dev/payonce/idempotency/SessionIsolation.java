package dev.payonce.idempotency;

import java.sql.SQLException;
import java.util.Locale;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;

/**
 * Whether the connection pool itself keeps every session at READ COMMITTED, so that the
 * engine need not declare the level on each transaction (docs/design.md section 3).
 *
 * <p>
 * Declaring it costs a round trip per transaction: Spring asks the driver for the
 * session's level ({@code SHOW TRANSACTION ISOLATION LEVEL}) before every transaction
 * that declares one. The pool can do the same work once per connection instead: with
 * {@code spring.datasource.hikari.connection-init-sql} set to
 * {@value #READ_COMMITTED_INIT_SQL}, every connection Hikari opens runs at READ COMMITTED
 * whatever the database's, role's or URL's default is (an {@code ALTER DATABASE ... SET
 * default_transaction_isolation} made after start-up included), and with
 * {@code spring.datasource.hikari.transaction-isolation=TRANSACTION_READ_COMMITTED} a
 * connection whose level some code changed is put back to READ COMMITTED when it returns
 * to the pool. {@code application.properties} sets both. The pool must also commit the
 * init statement: auto-commit on (Hikari's default, and the only setting Payonce starts
 * with: {@link #requireAutoCommit}), or internal queries isolated. Any other pool, or
 * either setting changed, and the engine declares READ COMMITTED per transaction as
 * before.
 */
final class SessionIsolation {

	/** The statement Hikari must run on every new connection. */
	static final String READ_COMMITTED_INIT_SQL = "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED";

	private SessionIsolation() {
	}

	/**
	 * Whether {@code dataSource} is a Hikari pool set up as the class comment says.
	 * @param dataSource the application's data source
	 * @return {@code true} only if both settings are exactly as required
	 */
	static boolean pinnedToReadCommitted(DataSource dataSource) {
		HikariDataSource hikari = hikari(dataSource);
		if (hikari == null) {
			return false;
		}
		// With auto-commit off, Hikari commits the init statement only when it isolates
		// its internal queries; otherwise the SET waits in an open transaction that the
		// first rollback undoes.
		return READ_COMMITTED_INIT_SQL.equals(normalize(hikari.getConnectionInitSql()))
				&& "TRANSACTION_READ_COMMITTED".equalsIgnoreCase(hikari.getTransactionIsolation())
				&& (hikari.isAutoCommit() || hikari.isIsolateInternalQueries());
	}

	/**
	 * Refuses a Hikari pool whose connections start with auto-commit off.
	 * <p>
	 * Payonce runs its transactions through Spring, which turns auto-commit off and on
	 * around each one, and relies on auto-commit for the statements it runs outside one:
	 * the pool's init statement (left in an open transaction it would make every later
	 * transaction fail) and the simulator's single-statement ledger writes (rolled back
	 * when the connection returns to the pool, so a simulated charge would vanish).
	 * Failing at start-up names the setting instead of answering 503 to every request.
	 * @param dataSource the application's data source; any pool other than Hikari passes
	 * @throws IllegalStateException naming {@code spring.datasource.hikari.auto-commit}
	 * when it is {@code false}
	 */
	static void requireAutoCommit(DataSource dataSource) {
		HikariDataSource hikari = hikari(dataSource);
		if (hikari != null && !hikari.isAutoCommit()) {
			throw new IllegalStateException("spring.datasource.hikari.auto-commit=false is not supported: Payonce "
					+ "commits its own transactions and needs auto-commit for the pool's init statement and the "
					+ "simulator's ledger writes; remove the setting (or SPRING_DATASOURCE_HIKARI_AUTO_COMMIT): "
					+ "Hikari's default is true (docs/deployment.md)");
		}
	}

	/** The Hikari pool {@code dataSource} is or wraps, or {@code null} for any other. */
	private static @Nullable HikariDataSource hikari(DataSource dataSource) {
		try {
			return dataSource.isWrapperFor(HikariDataSource.class) ? dataSource.unwrap(HikariDataSource.class) : null;
		}
		catch (SQLException ex) {
			return null;
		}
	}

	/** Upper case, single spaces, no trailing semicolon. */
	static String normalize(@Nullable String sql) {
		if (sql == null) {
			return "";
		}
		String trimmed = sql.strip();
		while (trimmed.endsWith(";")) {
			trimmed = trimmed.substring(0, trimmed.length() - 1).strip();
		}
		return trimmed.replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
	}

}
