package dev.payonce.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestCredentials;
import dev.payonce.TestcontainersConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP edge, the same on every route (docs/design.md section 2): bodies are strict
 * UTF-8, a declared oversized body is refused at once, a malformed query string is
 * {@code 400} and never an ERROR, one rule for {@code 405}/{@code Allow} and the problem
 * content type, and a {@code Request-Id} on every answer, its log lines and its problems.
 * Every request goes over a raw socket, byte for byte, and every answer is checked
 * against the served OpenAPI document.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
@ExtendWith(OutputCaptureExtension.class)
class HttpEdgeIntegrationTests {

	private static final String ERROR_LINE = "\"level\":\"ERROR\"";

	private static final Pattern REQUEST_ID_MEMBER = Pattern.compile("\"requestId\":\"([^\"]+)\"");

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	String paymentId;

	@BeforeEach
	void setUp() throws IOException {
		String created = exchange(post("/payments", "Idempotency-Key: edge-" + UUID.randomUUID(),
				bytes("{\"orderId\":\"edge-1\",\"amount\":1200,\"currency\":\"ILS\"}")));
		assertThat(created).startsWith("HTTP/1.1 201");
		this.paymentId = field(created, "id");
	}

	/** Every class of ill-formed UTF-8 (Unicode table 3-7), as raw bytes. */
	static Stream<Arguments> malformedUtf8() {
		return Stream.of(Arguments.of("overlong 2-byte '-'", new int[] { 0xC0, 0xAD }),
				Arguments.of("overlong 2-byte 'e'", new int[] { 0xC1, 0xA5 }),
				Arguments.of("overlong 2-byte 'A'", new int[] { 0xC1, 0x81 }),
				Arguments.of("overlong 3-byte '-'", new int[] { 0xE0, 0x80, 0xAD }),
				Arguments.of("overlong 4-byte '-'", new int[] { 0xF0, 0x80, 0x80, 0xAD }),
				Arguments.of("encoded surrogate", new int[] { 0xED, 0xA0, 0x80 }),
				Arguments.of("above U+10FFFF", new int[] { 0xF4, 0x90, 0x80, 0x80 }),
				Arguments.of("lead byte F5", new int[] { 0xF5, 0x80, 0x80, 0x80 }),
				Arguments.of("truncated 3-byte", new int[] { 0xE2, 0x82 }),
				Arguments.of("lone continuation", new int[] { 0x80 }), Arguments.of("byte FE", new int[] { 0xFE }),
				Arguments.of("byte FF", new int[] { 0xFF }));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("malformedUtf8")
	void refusesIllFormedUtf8InAPaymentAndChargesTheWellFormedTextAfterwards(String name, int[] malformed)
			throws IOException {
		String key = "Idempotency-Key: utf8-" + UUID.randomUUID();
		long before = count("payments");

		String refused = exchange(post("/payments", key, RawHttp.concat(bytes("{\"orderId\":\"ov"),
				RawHttp.bytes("", malformed), bytes("1\",\"amount\":1200,\"currency\":\"ILS\"}"))));
		long after = count("payments");
		String wellFormed = exchange(
				post("/payments", key, bytes("{\"orderId\":\"ov-1\",\"amount\":1200,\"currency\":\"ILS\"}")));

		assertInvalidRequest(refused);
		assertThat(after).isEqualTo(before);
		assertThat(wellFormed).startsWith("HTTP/1.1 201").doesNotContainIgnoringCase("Idempotent-Replayed");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("malformedUtf8")
	void refusesIllFormedUtf8InARefund(String name, int[] malformed) throws IOException {
		long before = count("refunds");

		String refused = exchange(
				post("/payments/" + this.paymentId + "/refunds", "Idempotency-Key: utf8-" + UUID.randomUUID(),
						RawHttp.concat(bytes("{\"reason\":\"duplicat"), RawHttp.bytes("", malformed), bytes("\"}"))));

		assertInvalidRequest(refused);
		assertThat(count("refunds")).isEqualTo(before);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("malformedUtf8")
	void refusesIllFormedUtf8OnTheAdminApi(String name, int[] malformed) throws IOException {
		long before = count("clients");

		String created = exchange(adminPost("/admin/clients",
				RawHttp.concat(bytes("{\"name\":\""), RawHttp.bytes("", malformed), bytes("cme\"}"))));
		String rotated = exchange(
				adminPost("/admin/clients/cli_" + UUID.randomUUID().toString().replace("-", "") + "/api-keys",
						RawHttp.concat(bytes("{\"mode\":\"t"), RawHttp.bytes("", malformed), bytes("\"}"))));

		assertInvalidRequest(created);
		assertInvalidRequest(rotated);
		assertThat(count("clients")).isEqualTo(before);
	}

	@Test
	void acceptsWellFormedMultibyteTextWhereTheContractAllowsIt() throws IOException {
		// U+00E9, U+20AC and U+1F642 in a member the contract does not know: refused
		// for the name, not for the bytes.
		String response = exchange(post("/payments", "Idempotency-Key: utf8-" + UUID.randomUUID(),
				RawHttp.concat(bytes("{\"caf"), RawHttp.bytes("", 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x99, 0x82),
						bytes("\":1,\"orderId\":\"mb-1\",\"amount\":1200,\"currency\":\"ILS\"}"))));

		assertThat(response).startsWith("HTTP/1.1 400").contains("is not a known field");
		assertThat(response).doesNotContain("well-formed UTF-8");
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "/payments", "/payments/{payment}/refunds", "/admin/clients",
			"/admin/clients/cli_x/api-keys", "/webhooks/stripe" })
	void refusesADeclaredOversizedBodyAtOnceOnEveryRoute(String route) throws IOException {
		String path = route.replace("{payment}", this.paymentId);
		String credentials = path.startsWith("/admin") ? TestCredentials.ADMIN_TOKEN : TestCredentials.DEV_KEY;
		byte[] request = bytes("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + credentials
				+ "\r\nIdempotency-Key: big-" + UUID.randomUUID()
				+ "\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{\"name\":");

		Timed answer = untilAnswered(request);

		assertThat(answer.response()).startsWith("HTTP/1.1 413")
			.contains("https://payonce.dev/problems/payload-too-large")
			.containsIgnoringCase("Connection: close");
		assertThat(answer.answeredMillis()).isLessThan(2_000);
		assertThat(answer.closedMillis()).isLessThan(2_000);
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "/actuator/health?a=%ZZ", "/actuator/health/liveness?a=%ZZ",
			"/actuator/health/readiness?a=%Z", "/actuator/prometheus?a=%ZZ", "/actuator/health?a=%",
			"/actuator/health?x%0D%0Aforged-line=1", "/actuator/health?a=%C0%AD", "/actuator/health?a=%ED%A0%80",
			"/actuator/health?a=%E2%82", "/actuator/health?a=%00", "/payments/{payment}?a=%ZZ",
			"/payments/{payment}/refunds?%0A=1", "/admin/clients?a=%FF", "/nowhere?a=%ZZ" })
	void answersAMalformedQueryWithInvalidRequestAndNoErrorLog(String target, CapturedOutput output)
			throws IOException {
		String path = target.replace("{payment}", this.paymentId);

		String response = exchange(get(path));

		assertThat(response).startsWith("HTTP/1.1 400");
		assertThat(response).contains("Content-Type: application/problem+json\r\n",
				"https://payonce.dev/problems/invalid-request");
		assertThat(output.getAll()).doesNotContain(ERROR_LINE).doesNotContain("forged-line").doesNotContain("%ZZ");
	}

	@Test
	void answersAWellFormedQueryAsBefore() throws IOException {
		String response = exchange(get("/actuator/health?a=%E2%82%AC&b=caf%C3%A9+x"));

		assertThat(response).startsWith("HTTP/1.1 200");
	}

	/** Every route, with an extension method and with OPTIONS. */
	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "/payments", "/payments/{payment}", "/payments/{payment}/refunds",
			"/payments/{payment}/refunds/{refund}", "/admin/clients", "/admin/clients/cli_x",
			"/admin/clients/cli_x/api-keys", "/actuator/health", "/actuator/prometheus" })
	void answersUnknownMethodsWith405AndTheAllowThatOptionsNames(String route) throws IOException {
		String path = route.replace("{payment}", this.paymentId).replace("{refund}", UUID.randomUUID().toString());

		String options = untilAnswered(request("OPTIONS", path)).response();
		String foo = exchange(request("FOO", path));
		String propfind = exchange(request("PROPFIND", path));
		String anonymous = exchange(bytes("FOO " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"));
		String trace = exchange(request("TRACE", path));

		assertThat(options).startsWith("HTTP/1.1 200");
		String allow = header(options, "Allow");
		assertThat(allow).endsWith("OPTIONS").matches("[A-Z]+(, [A-Z]+)*");
		for (String answer : List.of(foo, propfind, anonymous, trace)) {
			assertThat(answer).startsWith("HTTP/1.1 405").contains("https://payonce.dev/problems/method-not-allowed");
			assertThat(header(answer, "Allow")).isEqualTo(allow);
			assertThat(header(answer, "Content-Type")).isEqualTo("application/problem+json");
		}
	}

	@Test
	void namesTheSameMethodsInASpring405AsInOptions() throws IOException {
		String path = "/payments/" + this.paymentId + "/refunds";

		String options = untilAnswered(request("OPTIONS", path)).response();
		String delete = exchange(request("DELETE", path));

		assertThat(delete).startsWith("HTTP/1.1 405");
		assertThat(header(delete, "Allow")).isEqualTo(header(options, "Allow")).isEqualTo("GET, HEAD, POST, OPTIONS");
	}

	@Test
	void answersAnUnknownMethodOnAnUnknownPathAsNotFound() throws IOException {
		String response = exchange(request("FOO", "/nowhere"));

		assertThat(response).startsWith("HTTP/1.1 404").contains("https://payonce.dev/problems/not-found");
	}

	@Test
	void writesEveryProblemWithOneContentType() throws IOException {
		List<String> answers = List.of(exchange(request("DELETE", "/payments")), // Spring
																					// MVC
				exchange(get("/payments/nope-" + UUID.randomUUID())), // handler
				exchange(bytes("GET /payments HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")), // security
				exchange(bytes("GET /actuator/health/nope HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")),
				exchange(bytes("GET /payments HTTP/2.2\r\nHost: localhost\r\nConnection: close\r\n\r\n")), // Tomcat
				exchange(bytes("GET /payments HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\u0001b\r\n\r\n")), // Tomcat
				exchange(request("TRACE", "/payments"))); // error page

		for (String answer : answers) {
			assertThat(answer).matches("(?s)HTTP/1.1 [45]\\d\\d.*");
			assertThat(header(answer, "Content-Type")).isEqualTo("application/problem+json");
		}
	}

	@Test
	void givesEveryAnswerItsOwnRequestIdNamedByItsProblem() throws IOException {
		List<String> answers = List.of(exchange(get("/payments/" + this.paymentId)), exchange(get("/actuator/health")),
				exchange(get("/payments/nope")),
				exchange(bytes("GET /payments HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")),
				exchange(get("/actuator/health?a=%ZZ")), exchange(request("FOO", "/payments")),
				exchange(request("TRACE", "/payments")),
				exchange(bytes("GET /payments HTTP/2.2\r\nHost: localhost\r\nConnection: close\r\n\r\n")),
				exchange(bytes("GET /payments HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\u0001b\r\n\r\n")),
				exchange(post("/payments", "Idempotency-Key: id-" + UUID.randomUUID(), bytes("{\"orderId\":"))));
		Set<String> ids = new HashSet<>();

		for (String answer : answers) {
			String id = header(answer, "Request-Id");
			assertThat(id).matches(RequestIds.SHAPE);
			ids.add(id);
			if (answer.contains("application/problem+json")) {
				assertThat(member(answer)).isEqualTo(id);
			}
		}
		assertThat(ids).hasSize(answers.size());
	}

	@Test
	void neverTakesTheClientsRequestIdAsItsOwn() throws IOException {
		String response = exchange(bytes("GET /payments/nope HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
				+ "Authorization: Bearer " + TestCredentials.DEV_KEY + "\r\nRequest-Id: req_mine\r\n\r\n"));

		assertThat(header(response, "Request-Id")).matches(RequestIds.SHAPE).isNotEqualTo("req_mine");
		assertThat(response).doesNotContain("req_mine");
	}

	@Test
	void writesTheRequestIdIntoTheRequestsLogLines(CapturedOutput output) throws IOException {
		String response = exchange(post("/payments", "Idempotency-Key: log-" + UUID.randomUUID(),
				bytes("{\"orderId\":\"log-1\",\"amount\":1200,\"currency\":\"ILS\"}")));
		String id = header(response, "Request-Id");

		assertThat(output.getAll().lines().filter((line) -> line.contains("\"requestId\":\"" + id + "\"")))
			.anyMatch((line) -> line.contains("completed"));
	}

	@Test
	void replaysAStoredProblemNamingTheOriginalRequestUnderANewRequestId() throws IOException {
		String key = "Idempotency-Key: declined-" + UUID.randomUUID();
		byte[] body = bytes("{\"orderId\":\"dec-1\",\"amount\":1200,\"currency\":\"ILS\","
				+ "\"paymentMethod\":\"pm_card_chargeDeclined\"}");

		String first = exchange(post("/payments", key, body));
		String replay = exchange(post("/payments", key, body));

		assertThat(first).startsWith("HTTP/1.1 402");
		assertThat(replay).startsWith("HTTP/1.1 402").containsIgnoringCase("Idempotent-Replayed: true");
		assertThat(member(first)).isEqualTo(header(first, "Request-Id"));
		assertThat(member(replay)).isEqualTo(member(first));
		assertThat(header(replay, "Request-Id")).isNotEqualTo(header(first, "Request-Id"));
	}

	/**
	 * Sends a request and reads until the server closes, recording when the answer was
	 * complete (its headers and Content-Length body) and when the connection closed; not
	 * checked against the OpenAPI document (an OPTIONS answer is not an operation).
	 */
	private Timed untilAnswered(byte[] request) throws IOException {
		try (Socket socket = new Socket("localhost", this.port)) {
			socket.setSoTimeout(15_000);
			long start = System.nanoTime();
			socket.getOutputStream().write(request);
			socket.getOutputStream().flush();
			ByteArrayOutputStream received = new ByteArrayOutputStream();
			InputStream in = socket.getInputStream();
			long answered = -1;
			byte[] buffer = new byte[8192];
			try {
				for (int n; (n = in.read(buffer)) != -1;) {
					received.write(buffer, 0, n);
					if (answered < 0 && isComplete(received.toString(StandardCharsets.ISO_8859_1))) {
						answered = System.nanoTime();
					}
				}
			}
			catch (SocketTimeoutException | SocketException ex) {
				// Still open after the timeout, or reset: closedMillis says when.
			}
			long closed = System.nanoTime();
			return new Timed(received.toString(StandardCharsets.ISO_8859_1),
					(((answered < 0) ? closed : answered) - start) / 1_000_000, (closed - start) / 1_000_000);
		}
	}

	private static boolean isComplete(String response) {
		int end = response.indexOf("\r\n\r\n");
		if (end < 0) {
			return false;
		}
		Matcher length = Pattern.compile("(?im)^Content-Length: (\\d+)").matcher(response.substring(0, end));
		return length.find() && response.length() - end - 4 >= Integer.parseInt(length.group(1));
	}

	private record Timed(String response, long answeredMillis, long closedMillis) {
	}

	private static void assertInvalidRequest(String response) {
		assertThat(response).startsWith("HTTP/1.1 400");
		assertThat(response).contains("Content-Type: application/problem+json\r\n",
				"https://payonce.dev/problems/invalid-request", "well-formed UTF-8");
	}

	private long count(String table) {
		return this.jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single();
	}

	private String exchange(byte[] request) throws IOException {
		return exchange(request, 10_000);
	}

	private String exchange(byte[] request, int timeoutMillis) throws IOException {
		return RawHttp.exchange(this.port, request, timeoutMillis);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.ISO_8859_1);
	}

	private static byte[] post(String path, String idempotencyKey, byte[] body) {
		return RawHttp.concat(bytes("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
				+ "Authorization: Bearer " + TestCredentials.DEV_KEY + "\r\n" + idempotencyKey
				+ "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n"), body);
	}

	private static byte[] adminPost(String path, byte[] body) {
		return RawHttp.concat(bytes("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
				+ "Authorization: Bearer " + TestCredentials.ADMIN_TOKEN
				+ "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n"), body);
	}

	private static byte[] get(String target) {
		return request("GET", target);
	}

	private static byte[] request(String method, String target) {
		String credentials = (target.startsWith("/admin") || target.startsWith("/actuator/prometheus"))
				? TestCredentials.ADMIN_TOKEN : TestCredentials.DEV_KEY;
		return bytes(method + " " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
				+ "Authorization: Bearer " + credentials + "\r\n\r\n");
	}

	private static String header(String response, String name) {
		Matcher matcher = Pattern.compile("(?im)^" + Pattern.quote(name) + ": ([^\\r\\n]*)").matcher(response);
		assertThat(matcher.find()).as("header %s in %s", name, response).isTrue();
		return matcher.group(1);
	}

	private static String member(String response) {
		Matcher matcher = REQUEST_ID_MEMBER.matcher(response);
		assertThat(matcher.find()).as("requestId in %s", response).isTrue();
		return matcher.group(1);
	}

	private static String field(String response, String name) {
		Matcher matcher = Pattern.compile("\"" + name + "\":\"([^\"]+)\"").matcher(response);
		assertThat(matcher.find()).isTrue();
		return matcher.group(1);
	}

}
