package dev.payonce.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.payonce.web.OpenApiExchanges.Exchange;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exchange check finds what the document does not describe, so that a test whose
 * exchange it passes has really been checked: the checked-in {@code docs/openapi.json}
 * against exchanges built by hand.
 */
class OpenApiExchangesTests {

	private static final String PAYMENT = """
			{"id":"6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a","orderId":"order-1","amount":1200,"currency":"ILS",\
			"status":"SUCCEEDED","providerReference":null,"createdAt":"2026-11-29T19:49:31.093136Z"}""";

	private static final String REQUEST = """
			{"orderId":"order-1","amount":1200,"currency":"ILS"}""";

	private static final Map<String, List<String>> HEADERS = Map.of("Authorization", List.of("Bearer sk_test_x"),
			"Content-Type", List.of("application/json"), "Idempotency-Key", List.of("k-1"));

	static OpenApiInteractionValidator validator;

	@BeforeAll
	static void readDocument() throws IOException {
		validator = OpenApiInteractionValidator
			.createForInlineApiSpecification(Files.readString(Path.of("docs", "openapi.json")))
			.build();
	}

	@Test
	void passesADocumentedPaymentWithANullProviderReference() {
		assertThat(findings(exchange(201, json("Location", "/payments/6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a"), PAYMENT)))
			.isEmpty();
	}

	@Test
	void findsAnAnswerWithoutItsRequestId() {
		Map<String, List<String>> withoutRequestId = Map.of("Content-Type", List.of("application/json"), "Location",
				List.of("/payments/6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a"));

		assertThat(findings(exchange(201, withoutRequestId, PAYMENT)))
			.anySatisfy((finding) -> assertThat(finding).contains("Request-Id"));
	}

	@Test
	void findsAPaymentMissingARequiredMember() {
		String withoutCreatedAt = PAYMENT.replace(",\"createdAt\":\"2026-11-29T19:49:31.093136Z\"", "");

		assertThat(findings(exchange(201, json("Location", "/payments/x"), withoutCreatedAt)))
			.anySatisfy((finding) -> assertThat(finding).contains("createdAt"));
	}

	@Test
	void findsAnUndocumentedStatus() {
		assertThat(findings(exchange(418, problemJson(), problem(418)))).isNotEmpty();
	}

	@Test
	void findsAReplayHeaderOtherThanTrue() {
		Map<String, List<String>> headers = Map.of("Content-Type", List.of("application/json"), "Location",
				List.of("/payments/x"), "Idempotent-Replayed", List.of("yes"));

		assertThat(findings(exchange(201, headers, PAYMENT))).isNotEmpty();
	}

	@Test
	void findsAProblemWithoutItsType() {
		assertThat(findings(exchange(422, problemJson(), "{\"title\":\"Reused\",\"status\":422}"))).isNotEmpty();
	}

	@Test
	void findsARequestTheDocumentForbidsThatTheServiceAccepted() {
		Exchange accepted = new Exchange("http://localhost", "POST", "/payments", null, HEADERS,
				"{\"orderId\":\"order-1\",\"amount\":1200,\"currency\":\"ILS\",\"tip\":1}", 201,
				json("Location", "/payments/x"), PAYMENT);

		assertThat(OpenApiExchanges.findings(validator, accepted))
			.anySatisfy((finding) -> assertThat(finding).startsWith("accepted a request the document forbids"));
	}

	@Test
	void passesAProblemForARouteTheDocumentDoesNotHave() {
		Exchange unknown = new Exchange("http://localhost", "PUT", "/payments", null, HEADERS, REQUEST, 405,
				problemJson(), problem(405));

		assertThat(OpenApiExchanges.findings(validator, unknown)).isEmpty();
	}

	@Test
	void passesAProblemForAMethodOpenApiCannotName() {
		Exchange unknown = new Exchange("http://localhost", "FOO", "/payments", null, HEADERS, "", 405, problemJson(),
				problem(405));

		assertThat(OpenApiExchanges.findings(validator, unknown)).isEmpty();
	}

	@Test
	void findsASuccessForARouteTheDocumentDoesNotHave() {
		Exchange unknown = new Exchange("http://localhost", "GET", "/refunds", null, HEADERS, "", 200, json("X", "y"),
				"{}");

		assertThat(OpenApiExchanges.findings(validator, unknown)).isNotEmpty();
	}

	private static List<String> findings(Exchange exchange) {
		return OpenApiExchanges.findings(validator, exchange);
	}

	/** Every answer carries one (docs/design.md section 2, "Request-Id"). */
	private static final String REQUEST_ID = "req_3hM0cJb5Qd2lV9xTzK7wAa";

	private static Exchange exchange(int status, Map<String, List<String>> headers, String body) {
		return new Exchange("http://localhost", "POST", "/payments", null, HEADERS, REQUEST, status, headers, body);
	}

	private static Map<String, List<String>> json(String header, String value) {
		return Map.of("Content-Type", List.of("application/json"), header, List.of(value), RequestIds.HEADER,
				List.of(REQUEST_ID));
	}

	private static Map<String, List<String>> problemJson() {
		return Map.of("Content-Type", List.of("application/problem+json"), RequestIds.HEADER, List.of(REQUEST_ID));
	}

	private static String problem(int status) {
		return "{\"type\":\"https://payonce.dev/problems/x\",\"title\":\"X\",\"status\":" + status + "}";
	}

}
