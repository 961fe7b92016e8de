package dev.payonce.ops;

import java.sql.SQLException;

import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.transaction.TransactionSystemException;

import dev.payonce.ops.TransactionConfiguration.BrokenConnectionTolerantTransactionManager;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which rollback failures the transaction manager treats as a broken connection: only
 * SQLSTATE class {@code 08} and {@code 57P01}-{@code 57P03}, anywhere in the cause chain.
 */
class TransactionConfigurationTests {

	@Test
	void aLostOrTerminatedSessionIsABrokenConnection() {
		assertThat(BrokenConnectionTolerantTransactionManager.connectionBroken(new TransactionSystemException(
				"rollback", new DataAccessResourceFailureException("io", new SQLException("I/O error", "08006")))))
			.isTrue();
		assertThat(BrokenConnectionTolerantTransactionManager
			.connectionBroken(new TransactionSystemException("rollback", new SQLException("terminated", "57P01"))))
			.isTrue();
		assertThat(BrokenConnectionTolerantTransactionManager
			.connectionBroken(new TransactionSystemException("rollback", new SQLException("starting up", "57P03"))))
			.isTrue();
	}

	@Test
	void anyOtherRollbackFailureIsNot() {
		assertThat(BrokenConnectionTolerantTransactionManager.connectionBroken(new TransactionSystemException(
				"rollback", new DataIntegrityViolationException("unique", new SQLException("duplicate key", "23505")))))
			.isFalse();
		assertThat(BrokenConnectionTolerantTransactionManager
			.connectionBroken(new TransactionSystemException("rollback", new SQLException("no state")))).isFalse();
		assertThat(BrokenConnectionTolerantTransactionManager
			.connectionBroken(new TransactionSystemException("rollback", new SQLException("query canceled", "57014"))))
			.isFalse();
	}

}
