package dev.payonce.idempotency;

import java.sql.SQLException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.transaction.TransactionSystemException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which failures the engine retries: PostgreSQL's serialization failure and deadlock,
 * recognised by SQLSTATE wherever Spring wraps them, and nothing else.
 */
class TransientConflictTests {

	@ParameterizedTest
	@ValueSource(strings = { "40001", "40P01" })
	void retriesSerializationFailuresAndDeadlocks(String sqlState) {
		SQLException cause = new SQLException("aborted", sqlState);

		assertThat(EngineTransactions.isTransientConflict(new PessimisticLockingFailureException("x", cause))).isTrue();
		assertThat(EngineTransactions.isTransientConflict(new TransactionSystemException("commit", cause))).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "23505", "08006", "57014", "40000" })
	void neverRetriesOtherFailures(String sqlState) {
		SQLException cause = new SQLException("failed", sqlState);

		assertThat(EngineTransactions.isTransientConflict(new DataIntegrityViolationException("x", cause))).isFalse();
	}

}
