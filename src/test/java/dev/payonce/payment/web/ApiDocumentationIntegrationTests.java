package dev.payonce.payment.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.tags.Tag;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.SwaggerParseResult;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

import dev.payonce.TestCredentials;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI document at {@code /v3/api-docs} states the contract: it parses without a
 * message with swagger-parser, names every status each operation can answer with a typed
 * problem, declares both security schemes, the Idempotency-Key header, typed Retry-After
 * and Idempotent-Replayed headers and the retention window, and is the checked-in
 * {@code docs/openapi.json} that clients are generated from. Swagger UI in the local
 * profile: {@link SwaggerUiIntegrationTests}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class ApiDocumentationIntegrationTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** Status of POST /payments → the problem slugs its examples must show. */
	static final Map<String, List<String>> PROBLEMS = Map.of("400",
			List.of("idempotency-key-missing", "idempotency-key-invalid", "invalid-request", "amount-not-supported"),
			"401", List.of("unauthorized"), "402", List.of("payment-declined", "payment-failed"), "403",
			List.of("forbidden", "api-key-mode-mismatch"), "409", List.of("idempotency-request-in-progress"), "413",
			List.of("payload-too-large"), "415", List.of("unsupported-media-type"), "422",
			List.of("idempotency-key-reused"), "500", List.of("internal-error"), "503",
			List.of("payment-provider-unavailable", "payment-outcome-unknown", "service-unavailable"));

	/**
	 * Every status each operation's controller, the security filters and the error
	 * handling can answer (README, problem table). Adding an answer to the service means
	 * adding it here and to the document.
	 */
	static final Map<String, Set<String>> STATUSES = Map.ofEntries(
			Map.entry("createPayment",
					Set.of("201", "400", "401", "406", "402", "403", "408", "409", "413", "415", "422", "429", "500",
							"503", "417", "501", "505")),
			Map.entry("getPayment",
					Set.of("200", "400", "401", "406", "403", "404", "429", "500", "503", "413", "417", "501", "505")),
			Map.entry("createRefund",
					Set.of("201", "400", "401", "402", "403", "404", "406", "408", "409", "413", "415", "422", "500",
							"503", "417", "501", "505")),
			Map.entry("listRefunds",
					Set.of("200", "400", "401", "403", "404", "406", "500", "503", "413", "417", "501", "505")),
			Map.entry("getRefund",
					Set.of("200", "400", "401", "403", "404", "406", "500", "503", "413", "417", "501", "505")),
			Map.entry("createClient",
					Set.of("201", "400", "401", "406", "403", "408", "413", "415", "500", "503", "417", "501", "505")),
			Map.entry("listClients",
					Set.of("200", "400", "401", "406", "403", "500", "503", "413", "417", "501", "505")),
			Map.entry("getClient",
					Set.of("200", "400", "401", "406", "403", "404", "500", "503", "413", "417", "501", "505")),
			Map.entry("issueApiKey",
					Set.of("201", "400", "401", "406", "403", "404", "408", "413", "415", "500", "503", "417", "501",
							"505")),
			Map.entry("disableClient",
					Set.of("200", "400", "401", "406", "403", "404", "500", "503", "413", "417", "501", "505")),
			Map.entry("createCapture",
					Set.of("201", "400", "401", "402", "403", "404", "406", "408", "409", "413", "415", "422", "500",
							"503", "417", "501", "505")),
			Map.entry("listCaptures",
					Set.of("200", "400", "401", "403", "404", "406", "500", "503", "413", "417", "501", "505")),
			Map.entry("voidPayment",
					Set.of("200", "400", "401", "402", "403", "404", "406", "409", "413", "422", "500", "503", "417",
							"501", "505")),
			Map.entry("getCapture",
					Set.of("200", "400", "401", "403", "404", "406", "500", "503", "413", "417", "501", "505")),
			Map.entry("createWebhookEndpoint", Set.of("201", "400", "401", "403", "406", "413", "415", "500", "503")),
			Map.entry("rotateWebhookEndpointSecret", Set.of("200", "400", "401", "403", "404", "500", "503")),
			Map.entry("listEvents", Set.of("200", "400", "401", "403", "406", "500", "503")),
			Map.entry("getEvent", Set.of("200", "400", "401", "403", "404", "406", "500", "503")),
			Map.entry("redeliverEvent", Set.of("202", "400", "401", "403", "404", "500", "503")));

	@LocalServerPort
	int port;

	JsonNode served() {
		Reply reply = new PaymentsApi(this.port)
			.sendWithoutKey(new PaymentsApi(this.port).request("/v3/api-docs").GET());
		assertThat(reply.status()).isEqualTo(200);
		return reply.json();
	}

	@Test
	void documentsTheIdempotencyContractOfPostPayments() {
		JsonNode document = served();
		JsonNode post = document.at("/paths/~1payments/post");

		assertThat(document.get("openapi").asString()).startsWith("3.0");
		JsonNode key = post.get("parameters").get(0);
		assertThat(key.get("name").asString()).isEqualTo("Idempotency-Key");
		assertThat(key.get("in").asString()).isEqualTo("header");
		assertThat(key.get("required").asBoolean()).isTrue();
		assertThat(document.at("/components/securitySchemes/apiKey/scheme").asString()).isEqualTo("bearer");
		assertThat(document.at("/components/securitySchemes/adminToken/scheme").asString()).isEqualTo("bearer");
		assertThat(post.get("security").toString()).contains("apiKey").doesNotContain("adminToken");
		assertThat(document.at("/paths/~1admin~1clients/get/security").toString()).contains("adminToken")
			.doesNotContain("apiKey");
		assertThat(post.at("/responses/201/headers/Idempotent-Replayed/schema/enum").toString())
			.isEqualTo("[\"true\"]");
		assertThat(post.at("/responses/201/headers").has("Location")).isTrue();
		assertThat(post.at("/responses/409/headers/Retry-After/schema/type").asString()).isEqualTo("integer");
		assertThat(post.at("/responses/503/headers/Retry-After/schema/type").asString()).isEqualTo("integer");
		PROBLEMS.forEach((status, slugs) -> {
			JsonNode examples = post.at("/responses/" + status + "/content/application~1problem+json/examples");
			for (String slug : slugs) {
				assertThat(examples.at("/" + slug + "/value").toString()).as("%s example of %s", slug, status)
					.contains("https://payonce.dev/problems/" + slug);
			}
		});
		assertThat(document.at("/info/description").asString()).contains("replayed for 24h",
				"payonce.idempotency.retention", "Retry only 409, 503 and network errors", "new members");
		assertThat(document.at("/servers/0/url").asString()).isEqualTo("http://localhost:8080");
		assertThat(document.at("/components/schemas/PaymentRequest/required").toString()).contains("orderId", "amount",
				"currency");
		assertThat(document.at("/components/schemas/PaymentRequest/properties/amount/type").asString())
			.isEqualTo("integer");
		assertThat(document.at("/components/schemas/PaymentRequest/properties/amount/example").isIntegralNumber())
			.as("the amount example must be a JSON integer, as the contract demands")
			.isTrue();
	}

	@Test
	void documentsTheRefundsApiWithEachOfItsProblems() {
		JsonNode document = served();
		JsonNode post = document.at("/paths/~1payments~1{id}~1refunds/post");

		JsonNode key = keyParameter(post);
		assertThat(key.get("in").asString()).isEqualTo("header");
		assertThat(key.get("required").asBoolean()).isTrue();
		assertThat(post.at("/responses/201/headers").has("Location")).isTrue();
		assertThat(post.at("/responses/201/headers").has("Idempotent-Replayed")).isTrue();
		assertThat(post.at("/responses/503/headers/Retry-After/schema/type").asString()).isEqualTo("integer");
		assertThat(post.at("/responses/409/headers/Retry-After/required").asBoolean())
			.as("only the in-progress 409 carries Retry-After; a refused refund does not")
			.isFalse();
		Map.of(400, List.of("amount-not-supported"), 402, List.of("refund-declined", "refund-failed"), 403,
				List.of("api-key-mode-mismatch"), 404, List.of("payment-not-found"), 409,
				List.of("payment-not-refundable", "refund-exceeds-refundable", "idempotency-request-in-progress"), 422,
				List.of("idempotency-key-reused"), 503,
				List.of("refund-provider-unavailable", "refund-outcome-unknown"))
			.forEach((status, slugs) -> {
				JsonNode examples = post.at("/responses/" + status + "/content/application~1problem+json/examples");
				for (String slug : slugs) {
					assertThat(examples.at("/" + slug + "/value").toString()).as("%s example of %s", slug, status)
						.contains("https://payonce.dev/problems/" + slug);
				}
			});
		assertThat(document.at("/components/schemas/RefundRequest/properties/reason/enum").toString())
			.contains("duplicate", "fraudulent", "requested_by_customer");
		assertThat(document.at("/paths/~1payments~1{id}~1refunds/get/responses/200").isMissingNode()).isFalse();
	}

	@Test
	void documentsWhatEveryOperationThatMovesMoneySharesOnEachOfThem() {
		JsonNode paths = served().get("paths");

		for (String path : List.of("/payments", "/payments/{id}/refunds", "/payments/{id}/captures",
				"/payments/{id}/void")) {
			JsonNode post = paths.get(path).get("post");
			JsonNode key = keyParameter(post);
			assertThat(key.get("required").asBoolean()).as("Idempotency-Key of %s", path).isTrue();
			assertThat(key.at("/schema/pattern").asString()).isEqualTo(PaymentOperations.KEY_PATTERN);
			assertThat(key.has("example")).as("its own example key on %s", path).isTrue();
			post.get("responses").properties().forEach((status) -> {
				if (status.getKey().startsWith("2") || status.getKey().equals("402")) {
					assertThat(status.getValue().at("/headers").has("Idempotent-Replayed"))
						.as("Idempotent-Replayed on %s %s", path, status.getKey())
						.isTrue();
				}
			});
			assertThat(post.at("/responses/409/headers").has("Retry-After")).as("409 of %s", path).isTrue();
			assertThat(post.at("/responses/429/headers/Retry-After/required").asBoolean()).isTrue();
			Map.of("400", List.of("idempotency-key-missing", "idempotency-key-invalid", "invalid-request"), "403",
					List.of("api-key-mode-mismatch"), "409", List.of("idempotency-request-in-progress"), "422",
					List.of("idempotency-key-reused"), "429",
					List.of("rate-limit-exceeded", "idempotency-quota-exceeded"))
				.forEach((status, slugs) -> assertThat(
						post.at("/responses/" + status + "/content/application~1problem+json/examples").toString())
					.as("%s examples of %s", status, path)
					.contains(slugs.stream().map((slug) -> "https://payonce.dev/problems/" + slug).toList()));
		}
	}

	private static JsonNode keyParameter(JsonNode operation) {
		return operation.get("parameters")
			.findParents("name")
			.stream()
			.filter((parameter) -> parameter.get("name").asString().equals("Idempotency-Key"))
			.findFirst()
			.orElseThrow();
	}

	@Test
	void parsesWithoutMessagesAndDocumentsEveryStatusWithATypedProblem() {
		SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(served().toString());

		assertThat(parsed.getMessages()).isEmpty();
		Map<String, Operation> operations = new TreeMap<>();
		parsed.getOpenAPI()
			.getPaths()
			.forEach((path, item) -> item.readOperationsMap()
				.forEach((method, operation) -> operations.put(operation.getOperationId(), operation)));
		assertThat(operations.keySet()).containsAll(STATUSES.keySet());
		operations.forEach((id, operation) -> {
			assertThat(operation.getResponses().keySet()).as("statuses of %s", id)
				.containsAll(STATUSES.getOrDefault(id, Set.of()));
			assertThat(operation.getSummary()).as("summary of %s", id).isNotBlank();
			assertThat(operation.getTags()).as("tags of %s", id).hasSize(1);
			assertThat(operation.getSecurity()).as("security of %s", id).hasSize(1);
			operation.getResponses().forEach((status, response) -> {
				assertThat(response.getContent()).as("%s %s", id, status).doesNotContainKey("*/*");
				if (status.startsWith("4") || status.startsWith("5")) {
					assertThat(response.getContent().get("application/problem+json").getSchema().get$ref())
						.as("problem schema of %s %s", id, status)
						.isEqualTo("#/components/schemas/Problem");
				}
			});
		});
		assertThat(parsed.getOpenAPI().getTags()).extracting(Tag::getName).contains("Admin", "Payments", "Refunds");
	}

	@Test
	void isTheCheckedInDocumentClientsAreGeneratedFrom() throws IOException {
		JsonNode served = served();
		Path checkedIn = Path.of("docs", "openapi.json");
		Files.createDirectories(Path.of("target"));
		Files.writeString(Path.of("target", "openapi.json"),
				JSON.writerWithDefaultPrettyPrinter().writeValueAsString(served) + "\n");

		assertThat(JSON.readTree(Files.readString(checkedIn)).equals(served))
			.as("docs/openapi.json must be the served document: copy target/openapi.json over it")
			.isTrue();
	}

	@Test
	void servesNoSwaggerUiOutsideTheLocalProfile() {
		PaymentsApi api = new PaymentsApi(this.port);

		assertThat(api.get("/swagger-ui/index.html").status()).isEqualTo(404);
		// Nor its static files from the webjar, to any client key.
		assertThat(api.get("/webjars/swagger-ui/index.html").status()).isEqualTo(404);
		assertThat(api.get("/webjars/swagger-ui/swagger-ui-bundle.js").status()).isEqualTo(404);
	}

	@Test
	void servesNoActuatorDiscoveryPageThatEchoesTheHostOutsideTheLocalProfile() {
		PaymentsApi admin = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN);

		Reply discovery = admin.send(admin.request("/actuator").header("X-Probe", "1"));

		assertThat(discovery.status()).isEqualTo(404);
		assertThat(discovery.body()).doesNotContain("_links");
	}

}
