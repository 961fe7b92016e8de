package dev.payonce.ops;

import java.sql.SQLException;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizers;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The application's one transaction manager: Spring Boot's {@link JpaTransactionManager}
 * (with Boot's customizers applied), except that a rollback on a connection that broke is
 * not a failure of its own (docs/design.md, "The database goes away").
 *
 * <p>
 * When PostgreSQL restarts, or a session is terminated ({@code pg_terminate_backend}), or
 * the network drops a connection, the statement running on it fails and the transaction
 * is rolled back: a transaction whose session ends without {@code COMMIT} never commits.
 * The rollback call then fails too, because the connection is closed, and Spring would
 * log the first failure at {@code ERROR} ("Application exception overridden by rollback
 * exception") and throw the second in its place. Here such a rollback is logged at
 * {@code WARN} and the original failure goes on, to be answered
 * {@code 503 service-unavailable}. A rollback that fails on a live connection still fails
 * as before.
 */
@Configuration(proxyBeanMethods = false)
class TransactionConfiguration {

	@Bean
	PlatformTransactionManager transactionManager(ObjectProvider<TransactionManagerCustomizers> customizers) {
		BrokenConnectionTolerantTransactionManager transactionManager = new BrokenConnectionTolerantTransactionManager();
		customizers.ifAvailable((customizer) -> customizer.customize(transactionManager));
		return transactionManager;
	}

	/** A JPA transaction manager whose rollback on a broken connection is a no-op. */
	static final class BrokenConnectionTolerantTransactionManager extends JpaTransactionManager {

		private static final Logger log = LoggerFactory.getLogger(BrokenConnectionTolerantTransactionManager.class);

		@Override
		protected void doRollback(DefaultTransactionStatus status) {
			try {
				super.doRollback(status);
			}
			catch (RuntimeException ex) {
				if (!connectionBroken(ex) && !connectionClosed()) {
					throw ex;
				}
				log.warn(
						"Rollback on a broken database connection skipped ({} caused by {}): the session ended, "
								+ "so PostgreSQL rolled the transaction back",
						ex.getClass().getName(), NestedExceptionUtils.getMostSpecificCause(ex).getClass().getName());
			}
		}

		/**
		 * Whether the transaction's JDBC connection is closed: the pool closes a
		 * connection that failed with a fatal SQLSTATE, and its rollback then fails with
		 * no SQLSTATE at all.
		 */
		private boolean connectionClosed() {
			DataSource dataSource = getDataSource();
			if (dataSource == null
					|| !(TransactionSynchronizationManager.getResource(dataSource) instanceof ConnectionHolder holder)
					|| holder.getConnectionHandle() == null) {
				return false;
			}
			try {
				return holder.getConnection().isClosed();
			}
			catch (SQLException | RuntimeException ex) {
				return false;
			}
		}

		/**
		 * SQLSTATE class {@code 08} (connection exception: closed, lost, refused) or
		 * {@code 57P01}-{@code 57P03} (the server shut the session down or is not
		 * accepting it), anywhere in the cause chain.
		 */
		static boolean connectionBroken(Throwable ex) {
			for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
				if (cause instanceof SQLException sql && sql.getSQLState() != null
						&& (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P0"))) {
					return true;
				}
			}
			return false;
		}

	}

}
