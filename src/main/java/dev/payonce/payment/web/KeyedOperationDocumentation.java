package dev.payonce.payment.web;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.springdoc.core.customizers.OperationCustomizer;

import org.springframework.http.HttpHeaders;
import org.springframework.web.method.HandlerMethod;

import dev.payonce.idempotency.web.IdempotencyHeaders;
import dev.payonce.web.ApiDocumentation;

/**
 * Documents what every operation that moves money shares (its handler takes a command a
 * {@link CommandArgumentResolver} resolves, the operations {@link KeyModeCheck} checks),
 * so that each {@code *Operations} interface says only what is its own (docs/design.md
 * section 2; docs/api.md): the required {@code Idempotency-Key} header with its pattern
 * ({@link PaymentOperations#KEY_PATTERN}); {@code Idempotent-Replayed} on the answers
 * that are stored and replayed (every 2xx and 402); 400 {@code idempotency-key-missing},
 * {@code idempotency-key-invalid} and {@code invalid-request}; 403
 * {@code api-key-mode-mismatch}; 409 {@code idempotency-request-in-progress} with
 * {@code Retry-After}; 422 {@code idempotency-key-reused}; 429
 * {@code rate-limit-exceeded} and {@code idempotency-quota-exceeded} with
 * {@code Retry-After}.
 *
 * <p>
 * A status the operation documents itself keeps its description and its headers, and the
 * shared examples join its own; a 409 with other meanings gets a {@code Retry-After} that
 * is not required. An operation declares the {@code Idempotency-Key} parameter only to
 * give it its own example key and its place among the parameters. Springdoc runs
 * operation customizers before the document's customizers, so
 * {@code dev.payonce.web.ApiDocumentation} then adds the problems every operation shares.
 */
final class KeyedOperationDocumentation implements OperationCustomizer {

	private static final String KEY_DESCRIPTION = "Names this operation: 1-255 visible ASCII characters, bare (abc) or "
			+ "as an RFC 8941 string (\"abc\"); both spellings name the same key. A comma outside a string is refused "
			+ "(two header lines combined). Scoped to the calling client; a key that already names another "
			+ "operation is refused (422).";

	private static final String RETRY_WITH_KEY = "Seconds to wait before retrying with the same Idempotency-Key";

	private final List<CommandArgumentResolver<?>> commands;

	KeyedOperationDocumentation(List<CommandArgumentResolver<?>> commands) {
		this.commands = commands;
	}

	@Override
	public Operation customize(Operation operation, HandlerMethod handler) {
		if (!KeyModeCheck.movesMoney(handler, this.commands)) {
			return operation;
		}
		keyParameter(operation);
		ApiResponses responses = operation.getResponses();
		responses.forEach((status, response) -> {
			if (status.startsWith("2") || status.equals("402")) {
				response.addHeaderObject(IdempotencyHeaders.IDEMPOTENT_REPLAYED,
						new Header().description("Present, as true, only on a stored answer replayed")
							.schema(new StringSchema()._enum(List.of("true")))
							.style(Header.StyleEnum.SIMPLE));
			}
		});
		problems(responses, "400", "The key is missing or malformed, or the body is invalid; nothing stored",
				ProblemExamples.KEY_MISSING, ProblemExamples.KEY_INVALID, ProblemExamples.INVALID_REQUEST);
		problems(responses, "403", "The API key is of the other mode (test or live) than the payment provider's, "
				+ "or is not a client's API key; nothing stored", ProblemExamples.KEY_MODE_MISMATCH);
		boolean conflictOfItsOwn = responses.containsKey("409");
		ApiResponse conflict = problems(responses, "409",
				"A request with this key is still in progress; retry with the same key", ProblemExamples.IN_PROGRESS);
		retryAfter(conflict,
				conflictOfItsOwn ? RETRY_WITH_KEY + " (idempotency-request-in-progress only)" : RETRY_WITH_KEY,
				!conflictOfItsOwn);
		problems(responses, "422",
				"The key was used with a different request, or names another operation; nothing executed",
				ProblemExamples.KEY_REUSED);
		retryAfter(problems(responses, "429",
				"Over the client's request rate, or a new key while the client holds "
						+ "the most live keys allowed; nothing stored",
				ProblemExamples.RATE_LIMITED, ProblemExamples.QUOTA_EXCEEDED), "Seconds to wait before retrying", true);
		return operation;
	}

	private static void keyParameter(Operation operation) {
		Parameter key = (operation.getParameters() != null) ? operation.getParameters()
			.stream()
			.filter((parameter) -> IdempotencyHeaders.IDEMPOTENCY_KEY.equals(parameter.getName())
					&& "header".equals(parameter.getIn()))
			.findFirst()
			.orElse(null) : null;
		if (key == null) {
			key = new HeaderParameter().name(IdempotencyHeaders.IDEMPOTENCY_KEY);
			operation.addParametersItem(key);
		}
		key.required(true)
			.description(KEY_DESCRIPTION)
			.schema(new StringSchema().minLength(1).maxLength(512).pattern(PaymentOperations.KEY_PATTERN));
	}

	/**
	 * The response of the status, made with the description if the operation has none,
	 * with each example problem (named by its type's slug) among its examples.
	 */
	private static ApiResponse problems(ApiResponses responses, String status, String description, String... examples) {
		Map<String, Example> named = ApiDocumentation.problemExamples(responses, status, description);
		for (String example : examples) {
			JsonNode value = parsed(example);
			String slug = value.get("type").asText().substring(ProblemExamples.BASE.length());
			named.putIfAbsent(slug, new Example().description(slug).value(value));
		}
		return responses.get(status);
	}

	/**
	 * An example as swagger-core reads an annotation's: a tree that keeps the order of
	 * its members in the document.
	 */
	private static JsonNode parsed(String example) {
		try {
			return Json.mapper().readTree(example);
		}
		catch (JsonProcessingException ex) {
			throw new IllegalStateException("An example problem is not JSON", ex);
		}
	}

	private static void retryAfter(ApiResponse response, String description, boolean required) {
		if (response.getHeaders() == null || !response.getHeaders().containsKey(HttpHeaders.RETRY_AFTER)) {
			response.addHeaderObject(HttpHeaders.RETRY_AFTER,
					new Header().description(description)
						.required(required ? Boolean.TRUE : null)
						.schema(new Schema<Integer>().type("integer").minimum(BigDecimal.ONE))
						.style(Header.StyleEnum.SIMPLE));
		}
	}

}
