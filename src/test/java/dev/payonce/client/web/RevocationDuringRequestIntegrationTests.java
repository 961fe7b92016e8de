package dev.payonce.client.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Authorisation at the point of effect (docs/design.md section 13): a payment whose
 * headers were authenticated but whose body arrives after its key was rotated or its
 * client disabled through the admin API is refused 401 and charges nothing. The request
 * sends {@code Expect: 100-continue}; Payonce asks for the body only once authentication
 * has passed and the controller reads it, so "100 Continue" is the moment the request is
 * past authentication, when the test revokes.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class RevocationDuringRequestIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	DataSource dataSource;

	AdminApi admin;

	@BeforeEach
	void setUp() {
		this.admin = new AdminApi(this.port);
	}

	/**
	 * The claim-time check is right only at READ COMMITTED (its second statement needs a
	 * snapshot taken after the first one's lock wait). If the sessions' level is changed
	 * after start-up (ALTER DATABASE ... SET default_transaction_isolation reaches every
	 * new pooled connection), the check refuses to answer, so the claim fails closed
	 * instead of authorising a revoked key on a stale snapshot (migration V13_3).
	 */
	@Test
	void clientCheckRefusesToAnswerOutsideReadCommitted() throws SQLException {
		Reply created = this.admin.createClient("isolation");
		String check = "SELECT client_still_authorized(?, ?)";
		try (Connection connection = this.dataSource.getConnection()) {
			connection.setAutoCommit(false);
			for (int level : new int[] { Connection.TRANSACTION_REPEATABLE_READ,
					Connection.TRANSACTION_SERIALIZABLE }) {
				connection.setTransactionIsolation(level);
				try (PreparedStatement statement = connection.prepareStatement(check)) {
					statement.setString(1, created.field("id"));
					statement.setString(2, "0".repeat(64));
					assertThatExceptionOfType(SQLException.class).isThrownBy(statement::executeQuery)
						.satisfies((ex) -> assertThat(ex.getSQLState()).isEqualTo("55000"));
				}
				connection.rollback();
			}
			connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
			try (PreparedStatement statement = connection.prepareStatement(check)) {
				statement.setString(1, created.field("id"));
				statement.setString(2, "0".repeat(64));
				try (ResultSet result = statement.executeQuery()) {
					assertThat(result.next()).isTrue();
					assertThat(result.getBoolean(1)).isFalse();
				}
			}
			connection.rollback();
		}
	}

	static Stream<String> revocations() {
		return Stream.of("rotate and disable", "rotate", "disable");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("revocations")
	void refusesABodyThatArrivesAfterTheKeyOrClientWasRevoked(String revocation) throws IOException {
		Reply created = this.admin.createClient("revoked mid-request");
		String clientId = created.field("id");
		String orderId = "revoked-" + UUID.randomUUID();
		String key = "revoked-" + UUID.randomUUID();
		byte[] body = ("{\"orderId\":\"" + orderId + "\",\"amount\":1200,\"currency\":\"ILS\"}")
			.getBytes(StandardCharsets.US_ASCII);
		try (Socket socket = new Socket("localhost", this.port)) {
			socket.setSoTimeout(30_000);
			OutputStream out = socket.getOutputStream();
			InputStream in = socket.getInputStream();
			out.write(("POST /payments HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" + "Authorization: Bearer "
					+ created.field("apiKey") + "\r\nIdempotency-Key: " + key
					+ "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
					+ "\r\nExpect: 100-continue\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			String invitation = readHead(in);

			if (revocation.contains("rotate")) {
				assertThat(this.admin.rotate(clientId).status()).isEqualTo(201);
			}
			if (revocation.contains("disable")) {
				assertThat(this.admin.disable(clientId).status()).isEqualTo(200);
			}
			out.write(body);
			String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);

			assertThat(invitation).startsWith("HTTP/1.1 100");
			assertThat(answer).startsWith("HTTP/1.1 401")
				.contains("application/problem+json", "https://payonce.dev/problems/unauthorized");
		}
		assertThat(count("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?", key)).isZero();
		assertThat(count("SELECT count(*) FROM payments WHERE order_id = ?", orderId)).isZero();
		assertThat(count("SELECT count(*) FROM payments WHERE client_id = ?", clientId)).isZero();
	}

	private long count(String sql, String value) {
		return this.jdbc.sql(sql).param(value).query(Long.class).single();
	}

	/** Reads one response head, up to and including its blank line. */
	private static String readHead(InputStream in) throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
			int b = in.read();
			if (b == -1) {
				break;
			}
			head.write(b);
		}
		return head.toString(StandardCharsets.ISO_8859_1);
	}

}
