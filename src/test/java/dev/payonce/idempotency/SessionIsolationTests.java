package dev.payonce.idempotency;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * {@link SessionIsolation}: the engine stops declaring READ COMMITTED per transaction
 * only when the pool runs the exact init statement and resets to READ COMMITTED. No pool
 * is started: the checks read the pool's settings.
 */
class SessionIsolationTests {

	@Test
	void hikariWithBothSettingsKeepsSessionsAtReadCommitted() {
		assertThat(SessionIsolation
			.pinnedToReadCommitted(hikari(SessionIsolation.READ_COMMITTED_INIT_SQL, "TRANSACTION_READ_COMMITTED")))
			.isTrue();
	}

	@Test
	void initStatementMatchesWhateverItsCaseSpacingAndSemicolon() {
		assertThat(SessionIsolation.pinnedToReadCommitted(
				hikari("  set session characteristics as\n transaction isolation level read   committed; ",
						"transaction_read_committed")))
			.isTrue();
	}

	@Test
	void anotherOrNoInitStatementIsNotEnough() {
		assertThat(SessionIsolation.pinnedToReadCommitted(hikari(null, "TRANSACTION_READ_COMMITTED"))).isFalse();
		assertThat(SessionIsolation.pinnedToReadCommitted(hikari("SELECT 1", "TRANSACTION_READ_COMMITTED"))).isFalse();
		assertThat(SessionIsolation
			.pinnedToReadCommitted(hikari("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE",
					"TRANSACTION_READ_COMMITTED")))
			.isFalse();
		assertThat(SessionIsolation.pinnedToReadCommitted(hikari(
				SessionIsolation.READ_COMMITTED_INIT_SQL + "; SET default_transaction_isolation = 'serializable'",
				"TRANSACTION_READ_COMMITTED")))
			.isFalse();
	}

	@Test
	void withoutResetToReadCommittedTheInitStatementIsNotEnough() {
		// Hikari would put a changed connection back to the level it measured on its
		// first
		// connection, which may be the database's SERIALIZABLE default.
		assertThat(SessionIsolation.pinnedToReadCommitted(hikari(SessionIsolation.READ_COMMITTED_INIT_SQL, null)))
			.isFalse();
		assertThat(SessionIsolation
			.pinnedToReadCommitted(hikari(SessionIsolation.READ_COMMITTED_INIT_SQL, "TRANSACTION_SERIALIZABLE")))
			.isFalse();
	}

	@Test
	void withAutoCommitOffTheInitStatementCountsOnlyIfHikariCommitsIt() {
		HikariDataSource uncommitted = hikari(SessionIsolation.READ_COMMITTED_INIT_SQL, "TRANSACTION_READ_COMMITTED");
		uncommitted.setAutoCommit(false);
		HikariDataSource isolated = hikari(SessionIsolation.READ_COMMITTED_INIT_SQL, "TRANSACTION_READ_COMMITTED");
		isolated.setAutoCommit(false);
		isolated.setIsolateInternalQueries(true);

		assertThat(SessionIsolation.pinnedToReadCommitted(uncommitted)).isFalse();
		assertThat(SessionIsolation.pinnedToReadCommitted(isolated)).isTrue();
	}

	@Test
	void aWrappedHikariPoolIsRecognisedAndAnyOtherPoolIsNot() {
		HikariDataSource hikari = hikari(SessionIsolation.READ_COMMITTED_INIT_SQL, "TRANSACTION_READ_COMMITTED");
		assertThat(SessionIsolation.pinnedToReadCommitted(new DelegatingDataSource(hikari))).isTrue();
		assertThat(SessionIsolation.pinnedToReadCommitted(new SimpleDriverDataSource())).isFalse();
	}

	@Test
	void aHikariPoolWithAutoCommitOffIsRefusedNamingTheSetting() {
		HikariDataSource off = hikari(SessionIsolation.READ_COMMITTED_INIT_SQL, "TRANSACTION_READ_COMMITTED");
		off.setAutoCommit(false);
		off.setIsolateInternalQueries(true);

		assertThatIllegalStateException().isThrownBy(() -> SessionIsolation.requireAutoCommit(off))
			.withMessageStartingWith("spring.datasource.hikari.auto-commit=false is not supported");
		assertThatIllegalStateException()
			.isThrownBy(() -> SessionIsolation.requireAutoCommit(new DelegatingDataSource(off)));
	}

	@Test
	void autoCommitOnAndPoolsOtherThanHikariPass() {
		assertThatNoException().isThrownBy(() -> SessionIsolation
			.requireAutoCommit(hikari(SessionIsolation.READ_COMMITTED_INIT_SQL, "TRANSACTION_READ_COMMITTED")));
		assertThatNoException().isThrownBy(() -> SessionIsolation.requireAutoCommit(new SimpleDriverDataSource()));
	}

	private static HikariDataSource hikari(String initSql, String isolation) {
		HikariDataSource dataSource = new HikariDataSource();
		dataSource.setConnectionInitSql(initSql);
		dataSource.setTransactionIsolation(isolation);
		return dataSource;
	}

}
