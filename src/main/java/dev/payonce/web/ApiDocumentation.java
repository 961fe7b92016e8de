package dev.payonce.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Contact;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import org.springdoc.core.customizers.OpenApiCustomizer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.ProblemDetail;

import dev.payonce.web.edge.BodySizeFilter;

/**
 * The OpenAPI document's frame (served at {@code /v3/api-docs}, checked in as
 * {@code docs/openapi.json}): title, compatibility and retry rules, licence, contact, the
 * configured server URL, the two security schemes, the {@code Problem} schema, and the
 * problems every operation can answer whatever its module (malformed headers,
 * credentials, media types, size, the database). Modules document their own operations;
 * this class guarantees that every {@code application/problem+json} response names the
 * {@code Problem} schema and that no operation lacks a status the service can answer.
 *
 * <p>
 * To document a new operation (refunds, say): put {@code @Operation} with a stable
 * {@code operationId} and its own statuses (with problem examples) on the module's
 * {@code *Operations} interface, which its controller implements; this class adds the
 * shared problems, and an operation that moves money gets the Idempotency-Key header and
 * the problems keyed operations share from the payments API's
 * {@code KeyedOperationDocumentation}. New problem members go in
 * {@link #problemSchema()}. Then list the operation's statuses in
 * {@code ApiDocumentationIntegrationTests.STATUSES} and copy the served document over
 * {@code docs/openapi.json} (the test writes it to {@code target/openapi.json}).
 */
@Configuration(proxyBeanMethods = false)
public class ApiDocumentation {

	/** Security scheme of the payments API: a client's API key as a bearer token. */
	public static final String API_KEY = "apiKey";

	/** Security scheme of the admin API: the admin token as a bearer token. */
	public static final String ADMIN_TOKEN = "adminToken";

	/** Reference to the {@code Problem} schema, for annotations. */
	public static final String PROBLEM = "#/components/schemas/Problem";

	static final String PROBLEM_JSON = "application/problem+json";

	@Bean
	OpenAPI payonceOpenApi(WebProperties properties) {
		return new OpenAPI()
			.info(new Info().title("Payonce")
				.version("1")
				.description(DESCRIPTION)
				.contact(new Contact().name("Payonce API team").url("https://payonce.dev"))
				.license(new License().name("Proprietary: all rights reserved")))
			.servers(List.of(new Server().url(properties.serverUrl().toString())
				.description("The configured public URL (payonce.web.server-url)")))
			.components(new Components()
				.addSecuritySchemes(API_KEY,
						new SecurityScheme().type(SecurityScheme.Type.HTTP)
							.scheme("bearer")
							.bearerFormat("sk_live_ or sk_test_ followed by 43 base64url characters")
							.description("A client's API key (payments API). The admin token is refused here (403)."))
				.addSecuritySchemes(ADMIN_TOKEN,
						new SecurityScheme().type(SecurityScheme.Type.HTTP)
							.scheme("bearer")
							.bearerFormat("the configured admin token: 32 random bytes as base64url, base64 or hex")
							.description("The admin token (payonce.security.admin-token; admin API). "
									+ "API keys are refused here (403)."))
				.addSchemas("Problem", problemSchema())
				.addSchemas("FieldError", fieldErrorSchema()));
	}

	/**
	 * Adds to every operation the problems any request can meet before or around its
	 * handler, and makes every problem response name the {@code Problem} schema. A status
	 * the operation documents itself keeps its description; the common problem is added
	 * to its examples.
	 */
	@Bean
	OpenApiCustomizer commonProblemResponses() {
		return (openApi) -> {
			openApi.getPaths().values().forEach((path) -> path.readOperationsMap().forEach((method, operation) -> {
				boolean hasBody = operation.getRequestBody() != null;
				ApiResponses responses = operation.getResponses();
				add(responses, "400", "A header or the request line is malformed, or the request is invalid",
						Problems.rejectedRequest());
				add(responses, "401", "No, malformed, unknown, revoked or disabled credentials",
						Problems.forStatus(401))
					.addHeaderObject("WWW-Authenticate",
							new Header().description("Bearer realm=\"payonce\" (RFC 6750)")
								.required(true)
								.schema(new StringSchema()._enum(List.of("Bearer realm=\"payonce\""))));
				add(responses, "403", "Valid credentials of the wrong kind for this API", Problems.forStatus(403));
				add(responses, "406", "The Accept header excludes JSON", Problems.forStatus(406));
				// A declared Content-Length over the limit is refused on every operation,
				// GETs
				// too, before the body is read.
				add(responses, "413", "Body over 16 KiB (refused before it is read when declared)",
						Problems.payloadTooLarge(BodySizeFilter.MAX_BODY_BYTES));
				add(responses, "417", "An Expect header other than 100-continue", Problems.forStatus(417));
				if (hasBody) {
					add(responses, "408", "The body did not arrive in time; nothing stored", Problems.forStatus(408));
					add(responses, "415", "Body not application/json (multipart included)", Problems.forStatus(415));
				}
				add(responses, "500", "A bug; nothing is revealed and the answer is logged", Problems.forStatus(500));
				add(responses, "501", "A Transfer-Encoding other than chunked", Problems.forStatus(501));
				add(responses, "505", "The request line names an HTTP version other than 1.1 or 1.0",
						Problems.forStatus(505));
				add(responses, "503", "The service could not reach its database; retry after Retry-After",
						Problems.forStatus(503))
					.addHeaderObject("Retry-After", retryAfter());
				responses.values().forEach(ApiDocumentation::problemSchema);
				responses.values().forEach((response) -> response.addHeaderObject(RequestIds.HEADER, requestId()));
				sortResponses(operation);
			}));
			// Springdoc keeps only the schemas it resolved itself: add these two here.
			openApi.getComponents().getSchemas().computeIfAbsent("Problem", (name) -> problemSchema());
			openApi.getComponents().getSchemas().computeIfAbsent("FieldError", (name) -> fieldErrorSchema());
			if (openApi.getTags() != null) {
				openApi.getTags().sort((a, b) -> a.getName().compareTo(b.getName()));
			}
		};
	}

	/**
	 * The {@code Retry-After} header of 409 and 503 answers: whole seconds, at least 1.
	 */
	public static Header retryAfter() {
		return new Header().description("Seconds to wait before retrying with the same Idempotency-Key")
			.required(true)
			.schema(new IntegerSchema().minimum(java.math.BigDecimal.ONE));
	}

	/**
	 * The {@code Request-Id} header of every answer (docs/design.md section 2,
	 * "Request-Id").
	 */
	private static Header requestId() {
		return new Header()
			.description("Payonce's id of this request (a replay gets its own); quote it to support. "
					+ "A Request-Id the client sends is ignored.")
			.required(true)
			.schema(new StringSchema().pattern(RequestIds.SHAPE.pattern()).example("req_3hM0cJb5Qd2lV9xTzK7wAa"));
	}

	private static ApiResponse add(ApiResponses responses, String status, String description, ProblemDetail problem) {
		String slug = String.valueOf(problem.getType()).substring(ProblemTypes.BASE.length());
		problemExamples(responses, status, description).computeIfAbsent(slug,
				(name) -> new Example().value(Problems.members(problem)));
		return responses.get(status);
	}

	/**
	 * The examples of a status's {@code application/problem+json} answer, to add to: the
	 * response is made with the description when the operation documents none, and a
	 * status the operation documents keeps its own description.
	 * @param responses the operation's responses
	 * @param status the HTTP status, e.g. {@code "409"}
	 * @param description the status's description if the operation has none
	 * @return the examples by name, never {@code null}
	 */
	public static Map<String, Example> problemExamples(ApiResponses responses, String status, String description) {
		ApiResponse response = responses.computeIfAbsent(status, (code) -> new ApiResponse().description(description));
		if (response.getContent() == null) {
			response.setContent(new Content());
		}
		MediaType media = response.getContent().computeIfAbsent(PROBLEM_JSON, (type) -> new MediaType());
		if (media.getExamples() == null) {
			media.setExamples(new LinkedHashMap<>());
		}
		return media.getExamples();
	}

	private static void problemSchema(ApiResponse response) {
		if (response.getContent() != null && response.getContent().get(PROBLEM_JSON) != null) {
			response.getContent().get(PROBLEM_JSON).setSchema(new Schema<>().$ref(PROBLEM));
		}
	}

	private static void sortResponses(Operation operation) {
		ApiResponses sorted = new ApiResponses();
		operation.getResponses()
			.entrySet()
			.stream()
			.sorted(Map.Entry.comparingByKey())
			.forEach((entry) -> sorted.addApiResponse(entry.getKey(), entry.getValue()));
		operation.setResponses(sorted);
	}

	private static Schema<?> problemSchema() {
		Schema<?> problem = new ObjectSchema()
			.description("An RFC 9457 problem. Match on type; it never changes. "
					+ "New members may appear: ignore the ones you do not know.")
			.addProperty("type",
					new StringSchema().format("uri")
						.description("https://payonce.dev/problems/<slug>; docs/api.md lists every slug"))
			.addProperty("title", new StringSchema().description("A short, stable summary of the type"))
			.addProperty("status",
					new IntegerSchema().minimum(java.math.BigDecimal.valueOf(400))
						.maximum(java.math.BigDecimal.valueOf(599))
						.description("The HTTP status"))
			.addProperty("detail", new StringSchema().description("This occurrence, for a person"))
			.addProperty("instance", new StringSchema().format("uri-reference").description("The request path"))
			.addProperty(RequestIds.KEY,
					new StringSchema().pattern(RequestIds.SHAPE.pattern())
						.description("The request that produced this problem: the Request-Id of this answer, or of "
								+ "the original request when a stored problem is replayed"))
			.addProperty("paymentId", new StringSchema().format("uuid")
				.description("The payment concerned (payment-declined, payment-failed, "
						+ "payment-provider-unavailable, payment-outcome-unknown, refund-declined, refund-failed)"))
			.addProperty("declineCode",
					new StringSchema()
						.description("The provider's reason (payment-declined, refund-declined), e.g. card_declined, "
								+ "or its error code for a request it refused for good, e.g. amount_too_small"))
			.addProperty("refundId",
					new StringSchema().format("uuid")
						.description("The refund concerned (refund-declined, refund-failed, "
								+ "refund-provider-unavailable, refund-outcome-unknown)"))
			.addProperty("refundableAmount",
					new IntegerSchema().format("int64")
						.minimum(java.math.BigDecimal.ZERO)
						.description("Minor units the payment has left to refund now (refund-exceeds-refundable)"))
			.addProperty("captureId",
					new StringSchema().format("uuid")
						.description("The capture concerned (capture-declined, capture-failed, "
								+ "capture-provider-unavailable, capture-outcome-unknown)"))
			.addProperty("capturableAmount", new IntegerSchema().format("int64")
				.minimum(java.math.BigDecimal.ZERO)
				.description("Minor units the authorization has left to capture now (capture-exceeds-capturable)"))
			.addProperty("voidId",
					new StringSchema().format("uuid")
						.description("The void concerned (void-declined, void-failed, void-provider-unavailable, "
								+ "void-outcome-unknown)"))
			.addProperty("addressKind",
					new StringSchema()._enum(List.of("loopback", "private", "link_local", "reserved", "unresolvable"))
						.description("What the webhook URL's host resolved to (webhook-url-refused)"))
			.addProperty("currency",
					new StringSchema().description("The ISO 4217 currency of the amount (amount-not-supported)"))
			.addProperty("amount",
					new IntegerSchema().format("int64")
						.description("The amount asked for, in minor units (amount-not-supported)"))
			.addProperty("multipleOf", new IntegerSchema().format("int64")
				.description("The provider takes amounts of the currency in multiples of this (amount-not-supported)"))
			.addProperty("maximumAmount",
					new IntegerSchema().format("int64")
						.description("The largest amount of the currency the provider takes (amount-not-supported)"))
			.addProperty("keyMode",
					new StringSchema()._enum(List.of("test", "live"))
						.description("The mode of the request's API key (api-key-mode-mismatch)"))
			.addProperty("providerMode",
					new StringSchema()._enum(List.of("test", "live"))
						.description("The one mode the payment provider runs in (api-key-mode-mismatch)"))
			.addProperty("paymentStatus", new StringSchema().description(
					"The payment's status (payment-not-refundable, payment-not-capturable, payment-not-voidable), "
							+ "e.g. DECLINED"))
			.addProperty("errors", new ArraySchema().items(new Schema<>().$ref("#/components/schemas/FieldError"))
				.description("Each broken rule of the body (invalid-request)"));
		problem.setRequired(List.of("type", "title", "status"));
		return problem;
	}

	private static Schema<?> fieldErrorSchema() {
		Schema<?> error = new ObjectSchema().description("One broken rule of a request body")
			.addProperty("field", new StringSchema().description("The JSON member; empty for the body as a whole"))
			.addProperty("message", new StringSchema().description("What is wrong, for a person"));
		error.setRequired(List.of("field", "message"));
		return error;
	}

	private static final String DESCRIPTION = """
			The payments API that cannot charge twice. Every POST /payments (and every refund, POST \
			/payments/{id}/refunds) carries an Idempotency-Key; \
			the first request with a key is executed once and every retry with the same key and the same \
			request gets the stored response back, byte for byte, marked Idempotent-Replayed: true.

			**Retries.** Retry only 409, 503 and network errors (no answer, a reset connection, a timeout), \
			always with the same Idempotency-Key and the same body, after the Retry-After seconds when the \
			answer has one. Every other answer is final for its key: a 402 is replayed, a 4xx means the request \
			must change (and a changed request needs a new key).

			**Errors.** Every error is an RFC 9457 problem (application/problem+json, schema Problem) whose \
			type ends in a stable slug; match on type, never on title or detail. Besides the statuses each 			operation lists, a path that names no resource answers 404 with type 			https://payonce.dev/problems/not-found, and a method a resource does not support answers 405 with 			type https://payonce.dev/problems/method-not-allowed.

			**Compatibility.** Within version 1, answers may gain new members, problems new types and \
			extension members, and enumerations (such as a payment's status) new values: clients must ignore \
			members they do not know and treat an unknown value as "other". Nothing documented here is removed \
			or renamed, and no request that works today stops working.

			**Authentication.** The payments API takes a client's API key (scheme apiKey), the admin API the \
			admin token (scheme adminToken), both as Authorization: Bearer.""";

}
