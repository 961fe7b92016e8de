package dev.payonce.payment.web;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI 3.1 document at {@code /v3/api-docs} states the contract: the required
 * Idempotency-Key header, the bearer scheme, every status of POST /payments with its
 * problem types as examples, the Retry-After and Idempotent-Replayed headers, and the
 * retention window. Swagger UI is served in the local profile only.
 */
class ApiDocumentationIntegrationTests {

	/** Status of POST /payments → the problem slugs its examples must show. */
	static final Map<String, List<String>> PROBLEMS = Map.of("400",
			List.of("idempotency-key-missing", "idempotency-key-invalid", "invalid-request"), "401",
			List.of("unauthorized"), "402", List.of("payment-declined", "payment-failed"), "409",
			List.of("idempotency-request-in-progress"), "413", List.of("payload-too-large"), "415",
			List.of("unsupported-media-type"), "422", List.of("idempotency-key-reused"), "503",
			List.of("payment-provider-unavailable", "payment-outcome-unknown"));

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
	@Import(TestcontainersConfiguration.class)
	class Document {

		@LocalServerPort
		int port;

		@Test
		void documentsTheIdempotencyContractOfPostPayments() {
			Reply reply = new PaymentsApi(this.port)
				.sendWithoutKey(new PaymentsApi(this.port).request("/v3/api-docs").GET());
			JsonNode document = reply.json();
			JsonNode post = document.at("/paths/~1payments/post");

			assertThat(reply.status()).isEqualTo(200);
			assertThat(document.get("openapi").asString()).startsWith("3.1");
			JsonNode key = post.get("parameters").get(0);
			assertThat(key.get("name").asString()).isEqualTo("Idempotency-Key");
			assertThat(key.get("in").asString()).isEqualTo("header");
			assertThat(key.get("required").asBoolean()).isTrue();
			assertThat(document.at("/components/securitySchemes/bearer/scheme").asString()).isEqualTo("bearer");
			assertThat(post.get("security").toString()).contains("bearer");
			assertThat(post.at("/responses/201/headers").has("Idempotent-Replayed")).isTrue();
			assertThat(post.at("/responses/201/headers").has("Location")).isTrue();
			assertThat(post.at("/responses/409/headers").has("Retry-After")).isTrue();
			assertThat(post.at("/responses/503/headers").has("Retry-After")).isTrue();
			PROBLEMS.forEach((status, slugs) -> {
				JsonNode examples = post.at("/responses/" + status + "/content/application~1problem+json/examples");
				for (String slug : slugs) {
					assertThat(examples.at("/" + slug + "/value").toString()).as("%s example of %s", slug, status)
						.contains("https://payonce.dev/problems/" + slug);
				}
			});
			assertThat(document.at("/info/description").asString()).contains("replayed for 24h",
					"payonce.idempotency.retention");
			assertThat(document.at("/components/schemas/PaymentRequest/required").toString()).contains("orderId",
					"amount", "currency");
			assertThat(document.at("/components/schemas/PaymentRequest/properties/amount/type").asString())
				.isEqualTo("integer");
			assertThat(document.at("/components/schemas/PaymentRequest/properties/amount/example").isIntegralNumber())
				.as("the amount example must be a JSON integer, as the contract demands")
				.isTrue();
		}

		@Test
		void documentsTheRefundsApiWithEachOfItsProblems() {
			Reply reply = new PaymentsApi(this.port)
				.sendWithoutKey(new PaymentsApi(this.port).request("/v3/api-docs").GET());
			JsonNode document = reply.json();
			JsonNode post = document.at("/paths/~1payments~1{id}~1refunds/post");

			JsonNode key = post.get("parameters")
				.findParents("name")
				.stream()
				.filter((parameter) -> parameter.get("name").asString().equals("Idempotency-Key"))
				.findFirst()
				.orElseThrow();
			assertThat(key.get("in").asString()).isEqualTo("header");
			assertThat(key.get("required").asBoolean()).isTrue();
			assertThat(post.at("/responses/201/headers").has("Location")).isTrue();
			assertThat(post.at("/responses/201/headers").has("Idempotent-Replayed")).isTrue();
			assertThat(post.at("/responses/503/headers").has("Retry-After")).isTrue();
			Map.of(402, List.of("refund-declined", "refund-failed"), 404, List.of("payment-not-found"), 409,
					List.of("payment-not-refundable", "refund-exceeds-refundable", "idempotency-request-in-progress"),
					422, List.of("idempotency-key-reused"), 503,
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
		void servesNoSwaggerUiOutsideTheLocalProfile() {
			PaymentsApi api = new PaymentsApi(this.port);

			assertThat(api.get("/swagger-ui/index.html").status()).isEqualTo(404);
		}

	}

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
	@Import(TestcontainersConfiguration.class)
	@ActiveProfiles("local")
	class LocalProfile {

		@LocalServerPort
		int port;

		@Test
		void servesSwaggerUiWithoutCredentials() {
			PaymentsApi api = new PaymentsApi(this.port);

			Reply page = api.sendWithoutKey(api.request("/swagger-ui/index.html").GET());

			assertThat(page.status()).isEqualTo(200);
			assertThat(page.body()).contains("Swagger UI");
		}

	}

}
