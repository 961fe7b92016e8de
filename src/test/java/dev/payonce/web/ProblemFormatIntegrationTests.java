package dev.payonce.web;

import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestCredentials;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Problem-format edges (docs/api.md), over real HTTP: {@code /error} asked for directly,
 * {@code TRACE}, an unknown health group, an {@code Accept} that excludes JSON, a body of
 * 1,800 unknown members, unsupported methods in the log, and the OpenAPI server URL taken
 * from the {@code Host} header.
 */
@WebEdgeSettings
@ExtendWith(OutputCaptureExtension.class)
class ProblemFormatIntegrationTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String BODY = "{\"orderId\":\"format\",\"amount\":1200,\"currency\":\"ILS\"}";

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	PaymentsApi api;

	@BeforeEach
	void setUp() {
		this.api = new PaymentsApi(this.port);
	}

	@Test
	void answersADirectRequestForTheErrorPageAsAnUnknownRoute() {
		Reply reply = this.api.sendWithoutKey(this.api.request("/error").GET());

		assertThat(reply.status()).isEqualTo(404);
		assertThat(reply.header("Content-Type")).contains("application/problem+json");
		assertThat(reply.problemType()).isEqualTo("https://payonce.dev/problems/not-found");
	}

	@Test
	void refusesTraceAsAProblemNamingThePathsOwnMethods() {
		Reply payments = this.api.send(this.api.request("/payments").method("TRACE", BodyPublishers.noBody()));
		Reply payment = this.api
			.send(this.api.request("/payments/" + UUID.randomUUID()).method("TRACE", BodyPublishers.noBody()));
		Reply anonymous = this.api
			.sendWithoutKey(this.api.request("/payments").method("TRACE", BodyPublishers.noBody()));

		assertThat(payments.status()).isEqualTo(405);
		assertThat(payments.problemType()).isEqualTo("https://payonce.dev/problems/method-not-allowed");
		assertThat(payments.header("Content-Type")).contains("application/problem+json");
		assertThat(methods(payments)).isEqualTo("OPTIONS,POST");
		assertThat(methods(payment)).isEqualTo("GET,HEAD,OPTIONS");
		assertThat(anonymous.status()).isEqualTo(405);
		assertThat(payments.body()).doesNotContain("Authorization").doesNotContain("sk_test_");
	}

	@Test
	void answersAnUnknownHealthGroupWithAProblem() {
		Reply reply = this.api.sendWithoutKey(this.api.request("/actuator/health/nope").GET());

		assertThat(reply.status()).isEqualTo(404);
		assertThat(reply.header("Content-Type")).contains("application/problem+json");
		assertThat(reply.problemType()).isEqualTo("https://payonce.dev/problems/not-found");
	}

	@Test
	void refusesAnAcceptWithoutJsonBeforeChargingAnything() {
		String key = "png-" + UUID.randomUUID();

		Reply png = this.api.send(payment(key).header("Accept", "image/png"));
		Reply json = this.api.send(payment(key + "-json").header("Accept", "application/json"));
		Reply any = this.api.send(payment(key + "-any").header("Accept", "image/png, */*;q=0.1"));

		assertThat(png.status()).isEqualTo(406);
		assertThat(png.header("Content-Type")).contains("application/problem+json");
		assertThat(png.problemType()).isEqualTo("https://payonce.dev/problems/not-acceptable");
		assertThat(this.jdbc.sql("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?")
			.param(key)
			.query(Long.class)
			.single()).isZero();
		assertThat(json.status()).isEqualTo(201);
		assertThat(any.status()).isEqualTo(201);
	}

	@Test
	void refusesAnAcceptThatRulesJsonOutWithQualityZeroBeforeChargingAnything() {
		String key = "q0-" + UUID.randomUUID();

		Reply excluded = this.api.send(payment(key).header("Accept", "text/html, application/json;q=0"));
		Reply wildcardZero = this.api.send(payment(key + "-star").header("Accept", "*/*;q=0"));
		Reply problemOnly = this.api.send(payment(key + "-problem").header("Accept", "application/problem+json"));
		Reply specificWins = this.api
			.send(payment(key + "-specific").header("Accept", "*/*;q=0, application/json;q=0.5"));
		Reply refund = this.api.send(this.api.request("/payments/" + UUID.randomUUID() + "/refunds")
			.header("Idempotency-Key", key + "-refund")
			.header("Accept", "application/json;q=0")
			.POST(BodyPublishers.noBody()));

		assertThat(excluded.status()).isEqualTo(406);
		assertThat(excluded.problemType()).isEqualTo("https://payonce.dev/problems/not-acceptable");
		assertThat(wildcardZero.status()).isEqualTo(406);
		assertThat(problemOnly.status()).isEqualTo(406);
		assertThat(refund.status()).isEqualTo(406);
		assertThat(specificWins.status()).isEqualTo(201);
		assertThat(this.jdbc.sql("SELECT count(*) FROM idempotency_records WHERE idempotency_key LIKE ?")
			.param(key + "%")
			.query(Long.class)
			.single()).isEqualTo(1);
	}

	@Test
	void answersAMalformedAcceptWithAProblemOnEveryPath() {
		Reply payment = this.api.send(payment("bad-accept-" + UUID.randomUUID()).header("Accept", "garbage/"));
		Reply unknownPath = this.api.send(this.api.request("/nope").header("Accept", "a").GET());

		for (Reply reply : java.util.List.of(payment, unknownPath)) {
			assertThat(reply.status()).isEqualTo(400);
			assertThat(reply.header("Content-Type")).contains("application/problem+json");
			assertThat(reply.problemType()).isEqualTo("https://payonce.dev/problems/invalid-request");
		}
	}

	@Test
	void answersAnErrorAsAProblemWhateverTheAcceptHeaderNames() {
		Reply reply = this.api.send(this.api.request("/nope").header("Accept", "text/html").GET());

		assertThat(reply.status()).isEqualTo(404);
		assertThat(reply.header("Content-Type")).contains("application/problem+json");
		assertThat(reply.problemType()).isEqualTo("https://payonce.dev/problems/not-found");
	}

	@Test
	void givesEveryProblemWrittenOutsideSpringMvcItsInstance() throws Exception {
		String id = UUID.randomUUID().toString();
		String tooLarge = RawHttp.exchange(this.port,
				("POST /payments/" + id + "/refunds HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
						+ "Content-Length: 20000\r\nConnection: close\r\n\r\n")
					.getBytes(StandardCharsets.US_ASCII),
				30_000);
		Reply errorPage = this.api.sendWithoutKey(this.api.request("/error").GET());
		Reply unauthorized = this.api.sendWithoutKey(this.api.request("/payments/" + id).GET());

		assertThat(tooLarge).startsWith("HTTP/1.1 413");
		assertThat(JSON.readTree(tooLarge.substring(tooLarge.indexOf("\r\n\r\n") + 4)).get("instance").asString())
			.isEqualTo("/payments/" + id + "/refunds");
		assertThat(errorPage.field("instance")).isEqualTo("/error");
		assertThat(unauthorized.field("instance")).isEqualTo("/payments/" + id);
	}

	@Test
	void capsTheErrorsOfABodyFullOfUnknownMembers() {
		String body = unknownMembers(1_800);

		Reply reply = this.api.pay("unknown-" + UUID.randomUUID(), body);

		assertThat(body.length()).isLessThan(16 * 1024);
		// 1,800 unknown members and the three missing required fields: 19 listed, 1,784
		// more.
		assertCapped(reply, "1784 more errors not listed");
	}

	@Test
	void capsTheErrorsOfARefundBodyFullOfUnknownMembersAsAPaymentsAreCapped() {
		// The body is read before the payment is looked up: no payment is needed.
		Reply reply = this.api.refund(UUID.randomUUID().toString(), "unknown-" + UUID.randomUUID(),
				unknownMembers(1_700));

		assertCapped(reply, "1681 more errors not listed");
	}

	/** A JSON object of {@code count} unknown two-letter members, as the probe sent. */
	private static String unknownMembers(int count) {
		String letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
		return IntStream.range(0, count)
			.mapToObj((i) -> "\"" + letters.charAt(i / 52) + letters.charAt(i % 52) + "\":0")
			.collect(Collectors.joining(",", "{", "}"));
	}

	private static void assertCapped(Reply reply, String lastMessage) {
		assertThat(reply.status()).isEqualTo(400);
		assertThat(reply.problemType()).isEqualTo("https://payonce.dev/problems/invalid-request");
		JsonNode errors = reply.json().get("errors");
		assertThat(errors.size()).isEqualTo(20);
		assertThat(errors.get(19).get("message").asString()).isEqualTo(lastMessage);
		assertThat(reply.body().getBytes(StandardCharsets.UTF_8).length).isLessThan(4096);
	}

	@Test
	void echoesAnUnknownMemberNameOfAnyBodyAtMost64CharactersLong() {
		String longName = "y".repeat(16_000);
		PaymentsApi admin = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN);

		Reply payment = this.api.pay("long-" + UUID.randomUUID(),
				"{\"orderId\":\"o\",\"amount\":1,\"currency\":\"USD\",\"" + longName + "\":1}");
		Reply refund = this.api.refund(UUID.randomUUID().toString(), "long-" + UUID.randomUUID(),
				"{\"" + longName + "\":1}");
		Reply client = admin.send(admin.request("/admin/clients")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"name\":\"n\",\"" + longName + "\":1}")));

		for (Reply reply : List.of(payment, refund, client)) {
			assertThat(reply.status()).isEqualTo(400);
			assertThat(reply.json().get("errors").get(0).get("field").asString()).isEqualTo("y".repeat(64) + "...");
			assertThat(reply.body().length()).isLessThan(1024);
		}
	}

	@Test
	void neverEchoesHalfAnEmojiOfALongMemberName() {
		String name = "x".repeat(63) + "\ud83d\ude00" + "tail";

		Reply reply = this.api.pay("emoji-" + UUID.randomUUID(),
				"{\"orderId\":\"o\",\"amount\":1,\"currency\":\"USD\",\"" + name + "\":1}");

		assertThat(reply.status()).isEqualTo(400);
		assertThat(reply.json().get("errors").get(0).get("field").asString()).isEqualTo("x".repeat(63) + "...");
		assertThat(reply.body()).doesNotContain("\\ud83d").doesNotContain("\\uD83D");
	}

	@Test
	void answersUnsupportedMethodsWithoutLoggingWarnings(CapturedOutput output) {
		for (int i = 0; i < 5; i++) {
			assertThat(this.api.send(this.api.request("/payments").PUT(BodyPublishers.ofString(BODY))).status())
				.isEqualTo(405);
		}

		assertThat(output.getAll()).doesNotContain("PageNotFound").doesNotContain("is not supported");
	}

	@Test
	void documentsTheConfiguredServerUrlWhateverTheHostHeaderSays() throws Exception {
		String answer = RawHttp.exchange(this.port,
				("GET /v3/api-docs HTTP/1.1\r\nHost: evil.example:666\r\n"
						+ "X-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: http\r\nConnection: close\r\n\r\n")
					.getBytes(StandardCharsets.US_ASCII),
				30_000);

		assertThat(answer).startsWith("HTTP/1.1 200");
		JsonNode document = JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
		assertThat(document.get("servers")).hasSize(1);
		assertThat(document.get("servers").get(0).get("url").asString()).isEqualTo(WebEdgeSettings.SERVER_URL);
		assertThat(answer).doesNotContain("evil.example");
	}

	private java.net.http.HttpRequest.Builder payment(String key) {
		return this.api.request("/payments")
			.header("Idempotency-Key", key)
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString(BODY));
	}

	/** The Allow header's methods, sorted, comma-separated. */
	private static String methods(Reply reply) {
		return java.util.Arrays.stream(reply.header("Allow").orElse("").split(","))
			.map(String::strip)
			.filter((method) -> !method.isEmpty())
			.sorted()
			.collect(Collectors.joining(","));
	}

}
