package dev.payonce.payment.web;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * docs/design.md section 11, "A claim never commits after its 503": a refund's claim in
 * one statement waits on its payment's row lock, held by another session for longer than
 * the driver's socket timeout (2 s here, so the claim's deadline is 1 s). The claim gives
 * up inside PostgreSQL at its deadline and the client gets 503; once the lock is
 * released, nothing of the claim is there (no record, no refund, no reservation), and a
 * retry with the same key refunds.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "spring.datasource.hikari.data-source-properties.socketTimeout=2")
@Import(TestcontainersConfiguration.class)
class ClaimDeadlineIntegrationTests {

	private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(2);

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	JdbcConnectionDetails database;

	@Test
	void aRefundClaimThatWaitedOnItsPaymentPastTheDeadlineAnswers503AndNeverCommits() throws Exception {
		PaymentsApi api = new PaymentsApi(this.port);
		Reply paid = api.pay("pay-" + UUID.randomUUID(),
				PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 900, "ILS"));
		String paymentId = paid.field("id");
		String key = "deadline-" + UUID.randomUUID();
		Reply refused;
		long waitingAfterThe503;
		try (Connection holder = DriverManager.getConnection(this.database.getJdbcUrl(), this.database.getUsername(),
				Objects.requireNonNullElse(this.database.getPassword(), ""))) {
			holder.setAutoCommit(false);
			lockPayment(holder, paymentId);
			long sent = System.nanoTime();

			refused = api.refund(paymentId, key, "{\"amount\":900}");
			// Nothing of the claim still waits for the lock inside PostgreSQL.
			waitingAfterThe503 = sessionsWaitingOnALock();
			// Holds the lock past the socket timeout, when the driver would have given
			// up.
			await().pollDelay(Duration.ofMillis(50))
				.atMost(SOCKET_TIMEOUT.multipliedBy(3))
				.until(() -> Duration.ofNanos(System.nanoTime() - sent).compareTo(SOCKET_TIMEOUT) > 0);
			holder.rollback();
		}

		assertThat(paid.status()).isEqualTo(201);
		assertThat(refused.status()).isEqualTo(503);
		assertThat(refused.problemType()).endsWith("/service-unavailable");
		assertThat(refused.header("Retry-After")).isPresent();
		assertThat(waitingAfterThe503).isZero();
		assertThat(count("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?", key)).isZero();
		assertThat(count("SELECT count(*) FROM refunds WHERE payment_id = CAST(? AS uuid)", paymentId)).isZero();
		assertThat(count("SELECT refunds_in_flight FROM payments WHERE id = CAST(? AS uuid)", paymentId)).isZero();
		Reply retry = api.refund(paymentId, key, "{\"amount\":900}");
		assertThat(retry.status()).isEqualTo(201);
		assertThat(retry.header("Idempotent-Replayed")).isEmpty();
		assertThat(count("SELECT refunded_amount FROM payments WHERE id = CAST(? AS uuid)", paymentId)).isEqualTo(900);
		assertThat(count("SELECT refunds_in_flight FROM payments WHERE id = CAST(? AS uuid)", paymentId)).isZero();
	}

	private static void lockPayment(Connection holder, String paymentId) throws Exception {
		try (PreparedStatement lock = holder
			.prepareStatement("SELECT 1 FROM payments WHERE id = CAST(? AS uuid) FOR UPDATE")) {
			lock.setString(1, paymentId);
			try (ResultSet row = lock.executeQuery()) {
				assertThat(row.next()).isTrue();
			}
		}
	}

	private long sessionsWaitingOnALock() {
		return this.jdbc.sql("""
				SELECT count(*) FROM pg_stat_activity
				WHERE application_name = 'payonce' AND wait_event_type = 'Lock'""").query(Long.class).single();
	}

	private long count(String sql, String value) {
		return this.jdbc.sql(sql).param(value).query(Long.class).single();
	}

}
