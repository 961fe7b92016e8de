package dev.payonce.payment.web;

import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.net.http.HttpRequest.BodyPublishers;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestCredentials;
import dev.payonce.web.OpenApiExchanges;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md sections 2 and 6: bad input of every kind gets a 4xx RFC 9457 problem
 * with a stable type, never a 5xx, and writes nothing, so a corrected retry with the same
 * key works.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class PaymentValidationIntegrationTests {

	private static final String VALID = """
			{"orderId":"order-1","amount":1200,"currency":"ILS"}""";

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	PaymentsApi api;

	@BeforeEach
	void setUp() {
		this.api = new PaymentsApi(this.port);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("badInputs")
	void rejectsBadInputWithProblemAndWritesNothing(BadInput bad) {
		String key = "bad-" + UUID.randomUUID();
		long rowsBefore = rows();

		Reply reply = this.api.send(bad.request().apply(key).uri(this.api.uri("/payments")));

		assertThat(reply.status()).isEqualTo(bad.status());
		assertThat(reply.header("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(reply.problemType()).isEqualTo("https://payonce.dev/problems/" + bad.slug());
		assertThat(reply.field("title")).isNotBlank();
		assertThat(reply.json().get("status").intValue()).isEqualTo(bad.status());
		// The request id is random base64url and may spell any word.
		assertThat(reply.bodyApartFromRequestId()).doesNotContainIgnoringCase("exception")
			.doesNotContainIgnoringCase("jackson")
			.doesNotContainIgnoringCase("sql")
			.doesNotContain("at dev.payonce");
		if (bad.field() != null) {
			assertThat(reply.json().get("errors").valueStream().map((error) -> error.get("field").asString()))
				.contains(bad.field());
		}
		assertThat(rows()).isEqualTo(rowsBefore);
		Reply corrected = this.api.pay(key, VALID);
		assertThat(corrected.status()).isEqualTo(201);
		assertThat(corrected.header("Idempotent-Replayed")).isEmpty();
	}

	@Test
	void rejectsKeyWithNonAsciiBytesAndWritesNothing() throws Exception {
		long rowsBefore = rows();

		// The JDK client would send '?' for a non-ASCII character, so these bytes go over
		// a raw socket.
		String response = rawPost("Idempotency-Key: caf", (byte) 0xE9);

		assertThat(response).startsWith("HTTP/1.1 400");
		assertThat(response).contains("application/problem+json",
				"https://payonce.dev/problems/idempotency-key-invalid");
		assertThat(rows()).isEqualTo(rowsBefore);
	}

	@Test
	void rejectsHeaderValueWithControlCharacterAsProblemAndWritesNothing() throws Exception {
		long rowsBefore = rows();

		String response = rawPost("Idempotency-Key: a", (byte) 0x01);

		assertThat(response).startsWith("HTTP/1.1 400");
		assertThat(response).contains("application/problem+json", "https://payonce.dev/problems/invalid-request")
			.doesNotContainIgnoringCase("tomcat")
			.doesNotContain("<html");
		assertThat(rows()).isEqualTo(rowsBefore);
	}

	/**
	 * A valid payment request whose last header ends with one raw byte, sent over a
	 * socket.
	 */
	private String rawPost(String lastHeaderStart, byte lastHeaderByte) throws Exception {
		byte[] body = VALID.getBytes(StandardCharsets.US_ASCII);
		ByteArrayOutputStream request = new ByteArrayOutputStream();
		request.writeBytes(("POST /payments HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
				+ "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\nAuthorization: Bearer "
				+ TestCredentials.DEV_KEY + "\r\n" + lastHeaderStart)
			.getBytes(StandardCharsets.US_ASCII));
		request.write(lastHeaderByte);
		request.writeBytes("\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
		request.writeBytes(body);
		try (Socket socket = new Socket("localhost", this.port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write(request.toByteArray());
			String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
			OpenApiExchanges.checkRaw(
					"http://localhost:" + this.port, "POST", "/payments", Map.of("Content-Type",
							List.of("application/json"), "Authorization", List.of("Bearer " + TestCredentials.DEV_KEY)),
					VALID, response);
			return response;
		}
	}

	static Stream<BadInput> badInputs() {
		return Stream.of(
				// The Idempotency-Key header
				new BadInput("no key", (key) -> json(null, VALID), 400, "idempotency-key-missing", null),
				new BadInput("empty key", (key) -> json("", VALID), 400, "idempotency-key-invalid", null),
				new BadInput("256-character key", (key) -> json("k".repeat(256), VALID), 400, "idempotency-key-invalid",
						null),
				new BadInput("key with a space", (key) -> json("a b", VALID), 400, "idempotency-key-invalid", null),
				new BadInput("sf-string key without closing quote", (key) -> json("\"abc", VALID), 400,
						"idempotency-key-invalid", null),
				new BadInput("sf-string key with invalid escape", (key) -> json("\"a\\x\"", VALID), 400,
						"idempotency-key-invalid", null),
				new BadInput("sf-string key with content after the quote", (key) -> json("\"abc\"x", VALID), 400,
						"idempotency-key-invalid", null),
				new BadInput("empty sf-string key", (key) -> json("\"\"", VALID), 400, "idempotency-key-invalid", null),
				new BadInput("key with a comma, as two combined header lines",
						(key) -> json(key + "," + key + "-2", VALID), 400, "idempotency-key-invalid", null),
				new BadInput("key sent twice", (key) -> json(key, VALID).header("Idempotency-Key", key + "-2"), 400,
						"idempotency-key-invalid", null),
				// Transport of the body
				new BadInput("Accept excludes JSON", (key) -> json(key, VALID).header("Accept", "text/plain"), 406,
						"not-acceptable", null),
				new BadInput("text/plain body",
						(key) -> post(key).header("Content-Type", "text/plain").POST(BodyPublishers.ofString(VALID)),
						415, "unsupported-media-type", null),
				new BadInput("body over 16 KiB",
						(key) -> json(key,
								"""
										{"orderId":"order-1","amount":1200,"currency":"ILS","pad":"%s"}"""
									.formatted("x".repeat(17000))),
						413, "payload-too-large", null),
				// JSON shape
				new BadInput("empty body", (key) -> json(key, ""), 400, "invalid-request", ""),
				new BadInput("malformed JSON", (key) -> json(key, "{\"orderId\":"), 400, "invalid-request", ""),
				new BadInput("JSON array", (key) -> json(key, "[]"), 400, "invalid-request", ""),
				new BadInput("JSON null", (key) -> json(key, "null"), 400, "invalid-request", ""),
				new BadInput("trailing content", (key) -> json(key, VALID + " {}"), 400, "invalid-request", ""),
				new BadInput("duplicate member", (key) -> json(key, """
						{"orderId":"order-1","amount":1,"amount":1200,"currency":"ILS"}"""), 400, "invalid-request",
						""),
				new BadInput("unknown member", (key) -> json(key, """
						{"orderId":"order-1","amout":1200,"amount":1200,"currency":"ILS"}"""), 400, "invalid-request",
						"amout"),
				// amount: a JSON integer in minor units, never rounded
				amount("12.5"), amount("1200.0"), amount("\"1200\""), amount("1e3"), amount("-5"), amount("0"),
				amount("100000000000"), amount("99999999999999999999999"), amount("true"),
				new BadInput("missing amount", (key) -> json(key, """
						{"orderId":"order-1","currency":"ILS"}"""), 400, "invalid-request", "amount"),
				// currency: ISO 4217 with minor units
				currency("\"XYZ\""), currency("\"XAU\""), currency("\"US\""), currency("840"), currency("null"),
				// orderId: 1-64 of [A-Za-z0-9._:-]
				orderId("\"\""), orderId("\"" + "o".repeat(65) + "\""), orderId("\"order 1\""), orderId("\"order/1\""),
				orderId("42"), orderId("null"), amount("null"),
				// paymentMethod
				new BadInput("numeric paymentMethod", (key) -> json(key, """
						{"orderId":"order-1","amount":1200,"currency":"ILS","paymentMethod":5}"""), 400,
						"invalid-request", "paymentMethod"),
				new BadInput("null paymentMethod", (key) -> json(key, """
						{"orderId":"order-1","amount":1200,"currency":"ILS","paymentMethod":null}"""), 400,
						"invalid-request", "paymentMethod"));
	}

	private static BadInput amount(String value) {
		return new BadInput("amount " + value, (key) -> json(key, """
				{"orderId":"order-1","amount":%s,"currency":"ILS"}""".formatted(value)), 400, "invalid-request",
				"amount");
	}

	private static BadInput currency(String value) {
		return new BadInput("currency " + value, (key) -> json(key, """
				{"orderId":"order-1","amount":1200,"currency":%s}""".formatted(value)), 400, "invalid-request",
				"currency");
	}

	private static BadInput orderId(String value) {
		return new BadInput("orderId " + value, (key) -> json(key, """
				{"orderId":%s,"amount":1200,"currency":"ILS"}""".formatted(value)), 400, "invalid-request", "orderId");
	}

	private static HttpRequest.Builder post(String key) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(java.net.URI.create("http://placeholder/payments"));
		return (key != null) ? builder.header("Idempotency-Key", key) : builder;
	}

	private static HttpRequest.Builder json(String key, String body) {
		return post(key).header("Content-Type", "application/json").POST(BodyPublishers.ofString(body));
	}

	private long rows() {
		return this.jdbc.sql("""
				SELECT (SELECT count(*) FROM idempotency_records) + (SELECT count(*) FROM payments)
				     + (SELECT count(*) FROM simulated_provider_charges)""").query(Long.class).single();
	}

	/**
	 * One bad input: the request to send (given a fresh idempotency key), and the
	 * expected status, problem slug and, for {@code invalid-request}, the field named in
	 * {@code errors}.
	 */
	record BadInput(String name, Function<String, HttpRequest.Builder> request, int status, String slug, String field) {

		@Override
		public String toString() {
			return this.name;
		}

	}

}
