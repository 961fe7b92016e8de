package dev.payonce.web;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestCredentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Requests that break HTTP or hang up, sent byte for byte over a raw socket: every answer
 * is an RFC 9457 problem with a documented type and the right status, none is a 500, and
 * no log line quotes a header value or is written at ERROR for something that is not a
 * bug. The connection timeout is short here ({@link WebEdgeSettings}) so that a stalled
 * body is answered quickly.
 */
@WebEdgeSettings
@ExtendWith(OutputCaptureExtension.class)
class HttpBoundaryIntegrationTests {

	private static final String BODY = "{\"orderId\":\"order-raw\",\"amount\":1200,\"currency\":\"ILS\"}";

	/**
	 * UTF-8 of U+1F642 (slightly smiling face): 0x9F and 0x99 are C1 controls in
	 * ISO-8859-1.
	 */
	private static final int[] SMILE = { 0xF0, 0x9F, 0x99, 0x82 };

	/** An ECS log line at ERROR. */
	private static final String ERROR_LINE = "\"level\":\"ERROR\"";

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	String key;

	@BeforeEach
	void setUp() {
		this.key = "raw-" + UUID.randomUUID();
	}

	@Test
	void answersKeyWithEmojiAsInvalidKeyAndNeverLogsIt(CapturedOutput output) throws Exception {
		long rowsBefore = rows();

		String response = RawHttp.exchange(this.port, post(RawHttp.bytes("Idempotency-Key: " + this.key, SMILE), BODY),
				10_000);

		assertThat(response).startsWith("HTTP/1.1 400");
		assertThat(response).contains("application/problem+json",
				"https://payonce.dev/problems/idempotency-key-invalid");
		assertThat(rows()).isEqualTo(rowsBefore);
		assertThat(output.getAll()).doesNotContain(this.key).doesNotContain(ERROR_LINE);
	}

	@ParameterizedTest(name = "byte 0x{0}")
	@ValueSource(strings = { "80", "85", "9F" })
	void answersKeyWithAnyC1ByteAsInvalidKey(String hex) throws Exception {
		String response = RawHttp.exchange(this.port,
				post(RawHttp.bytes("Idempotency-Key: " + this.key, Integer.parseInt(hex, 16)), BODY), 10_000);

		assertThat(response).startsWith("HTTP/1.1 400")
			.contains("https://payonce.dev/problems/idempotency-key-invalid");
	}

	@Test
	void ignoresEmojiInAHeaderPayonceDoesNotRead(CapturedOutput output) throws Exception {
		String response = RawHttp.exchange(this.port,
				post(RawHttp.concat(RawHttp.bytes("Idempotency-Key: " + this.key + "\r\nX-Note: hi ", SMILE)), BODY),
				10_000);

		assertThat(response).startsWith("HTTP/1.1 201");
		assertThat(output.getAll()).doesNotContain(ERROR_LINE);
	}

	@Test
	void answersAuthorizationWithC1BytesAsUnauthorized() throws Exception {
		byte[] request = RawHttp.concat(RawHttp.bytes(
				"POST /payments HTTP/1.1\r\nHost: localhost\r\n"
						+ "Connection: close\r\nContent-Type: application/json\r\nContent-Length: " + BODY.length()
						+ "\r\nIdempotency-Key: " + this.key + "\r\nAuthorization: Bearer " + TestCredentials.DEV_KEY,
				0x85), RawHttp.bytes("\r\n\r\n" + BODY));

		String response = RawHttp.exchange(this.port, request, 10_000);

		assertThat(response).startsWith("HTTP/1.1 401").contains("https://payonce.dev/problems/unauthorized");
	}

	@Test
	void readsPaymentDespiteEmojiInAnotherHeader() throws Exception {
		String response = RawHttp.exchange(this.port,
				RawHttp.concat(RawHttp.bytes("GET /payments/" + UUID.randomUUID()
						+ " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAuthorization: Bearer "
						+ TestCredentials.DEV_KEY + "\r\nX-Note: hi ", SMILE), RawHttp.bytes("\r\n\r\n")),
				10_000);

		assertThat(response).startsWith("HTTP/1.1 404").contains("https://payonce.dev/problems/payment-not-found");
	}

	@Test
	void servesAdminApiDespiteEmojiInAnotherHeader() throws Exception {
		String response = RawHttp.exchange(this.port, RawHttp.concat(
				RawHttp.bytes("GET /admin/clients HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
						+ "Authorization: Bearer " + TestCredentials.ADMIN_TOKEN + "\r\nX-Note: hi ", SMILE),
				RawHttp.bytes("\r\n\r\n")), 10_000);

		assertThat(response).startsWith("HTTP/1.1 200");
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "POST /payments;x=1", "POST /payments;jsessionid=1", "POST //payments",
			"POST /payments/%2e%2e/payments", "POST /payments%2F..%2Fadmin", "GET /payments/%00" })
	void answersRequestsTheFirewallRefusesAsProblems(String requestLine) throws Exception {
		byte[] request = RawHttp.bytes(requestLine + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
				+ "Authorization: Bearer " + TestCredentials.DEV_KEY + "\r\nIdempotency-Key: " + this.key
				+ "\r\nContent-Type: application/json\r\nContent-Length: " + BODY.length() + "\r\n\r\n" + BODY);

		String response = RawHttp.exchange(this.port, request, 10_000);

		assertThat(response).startsWith("HTTP/1.1 400")
			.contains("application/problem+json", "https://payonce.dev/problems/invalid-request")
			.doesNotContain("\"error\"");
	}

	@Test
	void answersHeadersOverTomcatsLimitAsProblem() throws Exception {
		byte[] request = RawHttp.bytes("GET /payments/" + UUID.randomUUID()
				+ " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nX-Padding: " + "p".repeat(16 * 1024)
				+ "\r\n\r\n");

		String response = RawHttp.exchange(this.port, request, 10_000);

		assertThat(response).startsWith("HTTP/1.1 400")
			.contains("application/problem+json", "https://payonce.dev/problems/invalid-request")
			.doesNotContain("<html");
	}

	@Test
	void refusesDeclaredOversizedBodyBeforeReadingIt() throws Exception {
		// Ten bytes of a declared ten million: the answer must come without the rest.
		byte[] request = RawHttp.bytes("POST /payments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
				+ TestCredentials.DEV_KEY + "\r\nIdempotency-Key: " + this.key
				+ "\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{\"orderId\"");
		long started = System.nanoTime();

		String response = RawHttp.exchange(this.port, request, 5_000);

		assertThat(response).startsWith("HTTP/1.1 413")
			.contains("application/problem+json", "https://payonce.dev/problems/payload-too-large");
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
		assertThat(rows("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?")).isZero();
	}

	@Test
	void answersStalledChunkedBodyWith408Problem(CapturedOutput output) throws Exception {
		byte[] request = RawHttp.bytes("POST /payments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
				+ TestCredentials.DEV_KEY + "\r\nIdempotency-Key: " + this.key
				+ "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"ord\r\n");

		String response = RawHttp.exchange(this.port, request, 10_000);

		assertThat(response).startsWith("HTTP/1.1 408")
			.contains("application/problem+json", "https://payonce.dev/problems/request-timeout");
		assertThat(output.getAll()).doesNotContain(ERROR_LINE)
			.doesNotContain("stack_trace")
			.doesNotContain("Response already committed");
		assertThat(rows("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?")).isZero();
	}

	@Test
	void treatsClientHangingUpMidBodyAsNoError(CapturedOutput output) throws Exception {
		byte[] request = RawHttp.bytes("POST /payments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
				+ TestCredentials.DEV_KEY + "\r\nIdempotency-Key: " + this.key
				+ "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"orderId\"");

		RawHttp.sendAndHangUp(this.port, request);

		await().atMost(Duration.ofSeconds(10)).until(() -> output.getAll().contains("Client went away"));
		assertThat(output.getAll()).doesNotContain(ERROR_LINE)
			.doesNotContain("stack_trace")
			.doesNotContain("Unexpected failure");
	}

	@Test
	void answersUnsupportedExpectationWithDocumentedProblem() throws Exception {
		String response = RawHttp.exchange(this.port,
				post(RawHttp.bytes("Idempotency-Key: " + this.key + "\r\nExpect: foo"), BODY), 10_000);

		assertThat(response).startsWith("HTTP/1.1 417")
			.contains("application/problem+json", "https://payonce.dev/problems/expectation-failed");
		assertThat(rows("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?")).isZero();
	}

	@ParameterizedTest(name = "Transfer-Encoding: {0}")
	@ValueSource(strings = { "identity", "gzip" })
	void answersUnimplementedTransferCodingWithDocumentedProblem(String coding) throws Exception {
		byte[] request = RawHttp.bytes("POST /payments HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
				+ "Authorization: Bearer " + TestCredentials.DEV_KEY + "\r\nIdempotency-Key: " + this.key
				+ "\r\nContent-Type: application/json\r\nTransfer-Encoding: " + coding + "\r\n\r\n" + BODY);

		String response = RawHttp.exchange(this.port, request, 10_000);

		assertThat(response).startsWith("HTTP/1.1 501")
			.contains("application/problem+json", "https://payonce.dev/problems/not-implemented");
		assertThat(rows("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?")).isZero();
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "HTTP/2.0", "HTTP/0.9", "HTTP/3.0" })
	void answersAnUnsupportedHttpVersionWithDocumentedProblem(String version) throws Exception {
		String response = RawHttp.exchange(this.port,
				RawHttp.bytes("POST /payments " + version
						+ "\r\nHost: localhost\r\nConnection: close\r\nAuthorization: Bearer " + TestCredentials.DEV_KEY
						+ "\r\nIdempotency-Key: " + this.key + "\r\nContent-Type: application/json\r\nContent-Length: "
						+ BODY.length() + "\r\n\r\n" + BODY),
				10_000);

		assertThat(response).startsWith("HTTP/1.1 505")
			.contains("application/problem+json", "https://payonce.dev/problems/http-version-not-supported");
		assertThat(rows("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?")).isZero();
	}

	@Test
	void answersConnectWithDocumentedProblem() throws Exception {
		String response = RawHttp.exchange(this.port,
				RawHttp.bytes("CONNECT localhost:443 HTTP/1.1\r\nHost: localhost:443\r\nConnection: close\r\n\r\n"),
				10_000);

		assertThat(response).startsWith("HTTP/1.1 501").contains("https://payonce.dev/problems/not-implemented");
	}

	@Test
	void refusesDeclaredOversizedBodyOnAGetWithDocumentedProblem() throws Exception {
		byte[] request = RawHttp.bytes("GET /payments/" + UUID.randomUUID()
				+ " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAuthorization: Bearer "
				+ TestCredentials.DEV_KEY + "\r\nContent-Length: 10000000\r\n\r\n");

		String response = RawHttp.exchange(this.port, request, 5_000);

		assertThat(response).startsWith("HTTP/1.1 413").contains("https://payonce.dev/problems/payload-too-large");
	}

	/**
	 * RFC 9110 section 10.1.1: a server that already knows its answer does not invite the
	 * body with 100 Continue.
	 */
	@Test
	void refusesDeclaredOversizedBodyWithoutInvitingIt() throws Exception {
		byte[] request = RawHttp.bytes("POST /payments HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
				+ "Authorization: Bearer " + TestCredentials.DEV_KEY + "\r\nIdempotency-Key: " + this.key
				+ "\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\nExpect: 100-continue\r\n\r\n");

		String response = RawHttp.exchange(this.port, request, 5_000);

		assertThat(response).startsWith("HTTP/1.1 413")
			.doesNotContain("HTTP/1.1 100")
			.contains("https://payonce.dev/problems/payload-too-large");
		assertThat(rows("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?")).isZero();
	}

	@Test
	void invitesTheBodyOfAnAcceptablePaymentWithExpectContinue() throws Exception {
		String head = "POST /payments HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAuthorization: Bearer "
				+ TestCredentials.DEV_KEY + "\r\nIdempotency-Key: " + this.key
				+ "\r\nContent-Type: application/json\r\nContent-Length: " + BODY.length()
				+ "\r\nExpect: 100-continue\r\n\r\n";
		try (Socket socket = new Socket("localhost", this.port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write(RawHttp.bytes(head));
			socket.getOutputStream().flush();
			InputStream in = socket.getInputStream();
			String interim = readHead(in);

			socket.getOutputStream().write(RawHttp.bytes(BODY));
			socket.getOutputStream().flush();
			String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);

			assertThat(interim).startsWith("HTTP/1.1 100");
			assertThat(answer).startsWith("HTTP/1.1 201");
			OpenApiExchanges.checkRaw(this.port, RawHttp.bytes(head + BODY), answer);
		}
		assertThat(rows("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?")).isEqualTo(1);
	}

	/** Reads one response head, up to and including its blank line. */
	private static String readHead(InputStream in) throws IOException {
		StringBuilder head = new StringBuilder();
		while (!head.toString().endsWith("\r\n\r\n")) {
			int next = in.read();
			if (next == -1) {
				break;
			}
			head.append((char) next);
		}
		return head.toString();
	}

	private byte[] post(byte[] lastHeader, String body) {
		return RawHttp.concat(RawHttp.bytes("POST /payments HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
				+ "Content-Type: application/json\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length
				+ "\r\nAuthorization: Bearer " + TestCredentials.DEV_KEY + "\r\n"), lastHeader,
				RawHttp.bytes("\r\n\r\n" + body));
	}

	private long rows() {
		return this.jdbc.sql("SELECT (SELECT count(*) FROM idempotency_records) + (SELECT count(*) FROM payments)")
			.query(Long.class)
			.single();
	}

	private long rows(String sql) {
		return this.jdbc.sql(sql).param(this.key).query(Long.class).single();
	}

}
