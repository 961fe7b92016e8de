package dev.payonce.client.web;

import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestCredentials;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Authentication and the admin API, over real HTTP on real PostgreSQL: every
 * unauthenticated variant is a 401 problem that writes nothing; disabled clients and
 * rotated keys stop working at once; the admin API and the payments API refuse each
 * other's credentials; only health is public.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class ClientSecurityIntegrationTests {

	private static final String BODY = """
			{"orderId":"order-sec","amount":1200,"currency":"ILS"}""";

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	PaymentsApi api;

	AdminApi admin;

	@BeforeEach
	void setUp() {
		this.api = new PaymentsApi(this.port);
		this.admin = new AdminApi(this.port);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("unauthenticated")
	void refusesUnauthenticatedPaymentWith401AndWritesNothing(String name, UnaryOperator<HttpRequest.Builder> auth) {
		long rowsBefore = rows();

		Reply reply = this.api.sendWithoutKey(auth.apply(this.api.request("/payments")
			.header("Idempotency-Key", "sec-" + UUID.randomUUID())
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString(BODY))));

		assertThat(reply.status()).isEqualTo(401);
		assertThat(reply.problemType()).isEqualTo("https://payonce.dev/problems/unauthorized");
		assertThat(reply.header("WWW-Authenticate")).contains("Bearer realm=\"payonce\"");
		assertThat(reply.header("Content-Type")).contains("application/problem+json");
		assertThat(rows()).isEqualTo(rowsBefore);
	}

	static Stream<Object[]> unauthenticated() {
		String wellFormedUnknown = "sk_test_" + "A".repeat(43);
		return Stream.of(
				new Object[] { "no Authorization header", (UnaryOperator<HttpRequest.Builder>) (request) -> request },
				bearer("Basic credentials", "Basic dXNlcjpwYXNz"), bearer("Bearer without a token", "Bearer"),
				bearer("Bearer with blanks", "Bearer    "), bearer("unknown token", "Bearer not-a-key"),
				bearer("well-formed unknown key", "Bearer " + wellFormedUnknown),
				bearer("key with a typo", "Bearer " + TestCredentials.DEV_KEY.substring(0, 50) + "X"),
				bearer("key without scheme", TestCredentials.DEV_KEY),
				new Object[] { "two Authorization headers",
						(UnaryOperator<HttpRequest.Builder>) (request) -> request
							.header("Authorization", "Bearer " + TestCredentials.DEV_KEY)
							.header("Authorization", "Bearer " + TestCredentials.DEV_KEY) });
	}

	private static Object[] bearer(String name, String value) {
		return new Object[] { name,
				(UnaryOperator<HttpRequest.Builder>) (request) -> request.header("Authorization", value) };
	}

	@Test
	void acceptsTheBearerSchemeInAnyLetterCase() {
		Reply reply = this.api.sendWithoutKey(this.api.request("/payments/" + UUID.randomUUID())
			.header("Authorization", "bEaReR " + TestCredentials.DEV_KEY)
			.GET());

		assertThat(reply.status()).isEqualTo(404);
	}

	@Test
	void refusesDisabledClientAtOnce() {
		Reply created = this.admin.createClient("soon disabled");
		PaymentsApi client = this.api.as(created.field("apiKey"));
		Reply before = client.pay("dis-" + UUID.randomUUID(), BODY);

		Reply disabled = this.admin.disable(created.field("id"));
		Reply after = client.pay("dis-" + UUID.randomUUID(), BODY);
		Reply read = client.get("/payments/" + before.field("id"));

		assertThat(before.status()).isEqualTo(201);
		assertThat(disabled.status()).isEqualTo(200);
		assertThat(disabled.field("disabledAt")).isNotBlank();
		assertThat(after.status()).isEqualTo(401);
		assertThat(read.status()).isEqualTo(401);
		assertThat(this.admin.rotate(created.field("id")).status()).isEqualTo(404);
	}

	@Test
	void rotatedKeyStopsWorkingAndTheNewOneWorks() {
		Reply created = this.admin.createClient("rotating");
		String oldKey = created.field("apiKey");
		Reply paid = this.api.as(oldKey).pay("rot-" + UUID.randomUUID(), BODY);

		Reply rotated = this.admin.rotate(created.field("id"));
		String newKey = rotated.field("apiKey");

		assertThat(paid.status()).isEqualTo(201);
		assertThat(rotated.status()).isEqualTo(201);
		assertThat(newKey).startsWith("sk_test_").isNotEqualTo(oldKey);
		assertThat(this.api.as(oldKey).get("/payments/" + paid.field("id")).status()).isEqualTo(401);
		assertThat(this.api.as(newKey).get("/payments/" + paid.field("id")).status()).isEqualTo(200);
	}

	@Test
	void createsClientsWithHighEntropyKeysStoredOnlyAsDigests() {
		Reply created = this.admin.createClient("Acme Ltd");
		String key = created.field("apiKey");

		assertThat(created.status()).isEqualTo(201);
		assertThat(created.header("Location")).contains("/admin/clients/" + created.field("id"));
		Reply located = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN)
			.get(created.header("Location").orElseThrow());
		assertThat(located.status()).isEqualTo(200);
		assertThat(located.field("name")).isEqualTo("Acme Ltd");
		assertThat(located.body()).doesNotContain(key);
		assertThat(key).matches("sk_test_[A-Za-z0-9_-]{43}");
		assertThat(this.jdbc
			.sql("""
					SELECT count(*) FROM api_keys WHERE client_id = ? AND key_digest = encode(sha256(convert_to(?, 'UTF8')), 'hex')""")
			.param(created.field("id"))
			.param(key)
			.query(Long.class)
			.single()).isEqualTo(1);
		assertThat(this.jdbc.sql("""
				SELECT count(*) FROM api_keys WHERE key_digest = ? OR key_hint = ?""")
			.param(key)
			.param(key)
			.query(Long.class)
			.single()).isZero();
	}

	@Test
	void listsClientsWithoutSecrets() {
		String key = this.admin.newClientKey("listed");

		Reply list = this.admin.list();

		assertThat(list.status()).isEqualTo(200);
		assertThat(list.body()).contains("listed")
			.doesNotContain(key)
			.doesNotContain("apiKey")
			.doesNotContainPattern("sk_(live|test)_");
	}

	@Test
	void adminApiRefusesClientKeysAndPaymentsApiRefusesTheAdminToken() {
		Reply listAsClient = this.api.get("/admin/clients");
		Reply listAnonymously = this.api.sendWithoutKey(this.api.request("/admin/clients").GET());
		Reply payAsAdmin = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN).pay("adm-" + UUID.randomUUID(),
				BODY);

		assertThat(listAsClient.status()).isEqualTo(403);
		assertThat(listAsClient.problemType()).endsWith("/forbidden");
		assertThat(listAnonymously.status()).isEqualTo(401);
		assertThat(payAsAdmin.status()).isEqualTo(403);
		assertThat(payAsAdmin.problemType()).endsWith("/forbidden");
	}

	@Test
	void rejectsInvalidAdminRequestsWithProblems() {
		PaymentsApi asAdmin = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN);

		Reply blank = asAdmin.send(asAdmin.request("/admin/clients")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"name\":\"  \"}")));
		Reply unknownField = asAdmin.send(asAdmin.request("/admin/clients")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"name\":\"x\",\"nmae\":\"y\"}")));
		Reply malformed = asAdmin.send(asAdmin.request("/admin/clients")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{")));
		Reply unknownClient = this.admin.disable("cli_doesNotExist");

		assertThat(blank.status()).isEqualTo(400);
		assertThat(blank.problemType()).endsWith("/invalid-request");
		assertThat(blank.body()).contains("\"field\":\"name\"");
		assertThat(unknownField.status()).isEqualTo(400);
		assertThat(malformed.status()).isEqualTo(400);
		assertThat(malformed.body()).doesNotContainIgnoringCase("jackson").doesNotContainIgnoringCase("exception");
		assertThat(unknownClient.status()).isEqualTo(404);
		assertThat(unknownClient.problemType()).endsWith("/client-not-found");
	}

	/**
	 * The admin API reads JSON as strictly as the payments API: no scalar coerced into a
	 * string, no duplicate member (last wins), no trailing content, no JSON null for a
	 * member; each is 400 invalid-request and creates no client.
	 */
	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "{\"name\":1}", "{\"name\":true}", "{\"name\":1.5e3}",
			"{\"name\":\"strict-dup\",\"mode\":\"live\",\"mode\":\"test\"}", "{\"name\":\"strict-trailing\"} {}",
			"{\"name\":null}", "{\"name\":\"strict-null\",\"mode\":null}", "{\"name\":\"strict-mode\",\"mode\":1}" })
	void readsAdminJsonAsStrictlyAsPayments(String body) {
		PaymentsApi asAdmin = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN);
		long clientsBefore = clients();

		Reply created = asAdmin.send(asAdmin.request("/admin/clients")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString(body)));

		assertThat(created.status()).isEqualTo(400);
		assertThat(created.problemType()).endsWith("/invalid-request");
		assertThat(created.body()).doesNotContainIgnoringCase("jackson").doesNotContainIgnoringCase("exception");
		assertThat(clients()).isEqualTo(clientsBefore);
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "{\"mode\":null}", "{\"mode\":1}", "{\"mode\":\"live\",\"mode\":\"test\"}" })
	void readsKeyRotationJsonStrictly(String body) {
		String clientId = this.admin.createClient("strict-rotation").field("id");
		PaymentsApi asAdmin = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN);

		Reply rotated = asAdmin.send(asAdmin.request("/admin/clients/" + clientId + "/api-keys")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString(body)));

		assertThat(rotated.status()).isEqualTo(400);
		assertThat(rotated.problemType()).endsWith("/invalid-request");
		assertThat(this.jdbc.sql("SELECT count(*) FROM api_keys WHERE client_id = ?")
			.param(clientId)
			.query(Long.class)
			.single()).isEqualTo(1);
	}

	@Test
	void namesTheNullMemberOfAnAdminRequest() {
		PaymentsApi asAdmin = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN);

		Reply created = asAdmin.send(asAdmin.request("/admin/clients")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"name\":\"named-null\",\"mode\":null}")));

		assertThat(created.status()).isEqualTo(400);
		assertThat(created.json().get("errors").get(0).get("field").asString()).isEqualTo("mode");
	}

	private long clients() {
		return this.jdbc.sql("SELECT count(*) FROM clients").query(Long.class).single();
	}

	@Test
	void onlyHealthIsPublicAmongActuatorEndpoints() {
		Reply health = this.api.sendWithoutKey(this.api.request("/actuator/health").GET());
		Reply env = this.api.sendWithoutKey(this.api.request("/actuator/env").GET());
		Reply beansAsClient = this.api.get("/actuator/beans");

		assertThat(health.status()).isEqualTo(200);
		assertThat(health.field("status")).isEqualTo("UP");
		assertThat(env.status()).isEqualTo(401);
		assertThat(beansAsClient.status()).isEqualTo(403);
	}

	@Test
	void servesPrometheusMetricsOnlyToTheAdministrator() {
		Reply anonymous = this.api.sendWithoutKey(this.api.request("/actuator/prometheus").GET());
		Reply asClient = this.api.get("/actuator/prometheus");
		Reply asAdmin = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN).get("/actuator/prometheus");

		assertThat(anonymous.status()).isEqualTo(401);
		assertThat(asClient.status()).isEqualTo(403);
		assertThat(asAdmin.status()).isEqualTo(200);
		assertThat(asAdmin.body())
			.contains("payonce_idempotency_claims_total", "payonce_payments_total",
					"payonce_idempotency_leases_expired", "payonce_idempotency_cleanup_deleted_total",
					"payonce_reconciliation_outcomes_total",
					"payonce_provider_calls_seconds_count{operation=\"lookup\",outcome=\"unknown\"}")
			.doesNotContain("sk_test_")
			.doesNotContain(TestCredentials.ADMIN_TOKEN);
	}

	private long rows() {
		return this.jdbc.sql("""
				SELECT (SELECT count(*) FROM idempotency_records) + (SELECT count(*) FROM payments)
				     + (SELECT count(*) FROM simulated_provider_charges)""").query(Long.class).single();
	}

}
