package io.payonce.client;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Currency;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The wire format of {@code docs/openapi.json}, mapped by hand: requests written member
 * by member (an optional member is left out, never {@code null}, as the service
 * requires), answers read member by member, ignoring members this version does not know
 * (the document's compatibility rule).
 */
final class Json {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private static final String PROBLEMS = "https://payonce.dev/problems/";

	private Json() {
	}

	static byte[] paymentRequest(PaymentRequest request) {
		ObjectNode body = MAPPER.createObjectNode();
		body.put("orderId", request.orderId());
		body.put("amount", request.amount());
		body.put("currency", request.currency().getCurrencyCode());
		request.paymentMethod().ifPresent((method) -> body.put("paymentMethod", method));
		return MAPPER.writeValueAsBytes(body);
	}

	/**
	 * The refund body, or {@code null} when it names nothing: refund all that remains.
	 */
	static byte[] refundRequest(RefundRequest request) {
		if (request.amount().isEmpty() && request.reason().isEmpty()) {
			return null;
		}
		ObjectNode body = MAPPER.createObjectNode();
		request.amount().ifPresent((amount) -> body.put("amount", amount));
		request.reason().ifPresent((reason) -> body.put("reason", reason.wireValue()));
		return MAPPER.writeValueAsBytes(body);
	}

	static Payment payment(byte[] body) {
		return payment(tree(body));
	}

	static Refund refund(byte[] body) {
		return refund(tree(body));
	}

	static RefundPage refundPage(byte[] body) {
		JsonNode page = tree(body);
		List<Refund> refunds = new ArrayList<>();
		for (JsonNode refund : required(page, "data")) {
			refunds.add(refund(refund));
		}
		return new RefundPage(refunds, required(page, "has_more").asBoolean());
	}

	/**
	 * The problem in an answer, if its body is one (a JSON object with a string
	 * {@code type}).
	 */
	static Optional<Problem> problem(ApiResponse response) {
		JsonNode node;
		try {
			node = MAPPER.readTree(response.body());
		}
		catch (JacksonException ex) {
			return Optional.empty();
		}
		if (node == null || !node.isObject() || !node.path("type").isString()) {
			return Optional.empty();
		}
		String type = node.get("type").asString();
		String slug = type.startsWith(PROBLEMS) ? type.substring(PROBLEMS.length())
				: type.substring(type.lastIndexOf('/') + 1);
		List<Problem.FieldError> errors = new ArrayList<>();
		for (JsonNode error : node.path("errors")) {
			errors.add(new Problem.FieldError(error.path("field").asString(""), error.path("message").asString("")));
		}
		Map<String, String> members = new HashMap<>();
		node.properties().forEach((member) -> {
			if (member.getValue().isValueNode() && !member.getValue().isNull()) {
				members.put(member.getKey(), member.getValue().asString());
			}
		});
		return Optional
			.of(new Problem(type, slug, node.path("title").asString(""), node.path("status").asInt(response.status()),
					text(node, "detail"), text(node, "requestId"), errors, members));
	}

	private static Payment payment(JsonNode node) {
		return new Payment(new PaymentId(UUID.fromString(string(node, "id"))), string(node, "orderId"),
				required(node, "amount").asLong(), Currency.getInstance(string(node, "currency")),
				node.path("refundedAmount").asLong(0), Status.of(string(node, "status")),
				text(node, "providerReference"), Instant.parse(string(node, "createdAt")));
	}

	private static Refund refund(JsonNode node) {
		return new Refund(new RefundId(UUID.fromString(string(node, "id"))),
				new PaymentId(UUID.fromString(string(node, "paymentId"))), required(node, "amount").asLong(),
				Currency.getInstance(string(node, "currency")), text(node, "reason").map(RefundReason::of),
				Status.of(string(node, "status")), text(node, "providerReference"),
				Instant.parse(string(node, "createdAt")));
	}

	private static JsonNode tree(byte[] body) {
		try {
			return MAPPER.readTree(body);
		}
		catch (JacksonException ex) {
			throw new UnexpectedAnswerException("The answer is not JSON", ex);
		}
	}

	private static JsonNode required(JsonNode node, String name) {
		JsonNode value = node.get(name);
		if (value == null || value.isNull()) {
			throw new UnexpectedAnswerException("The answer has no '" + name + "'", null);
		}
		return value;
	}

	private static String string(JsonNode node, String name) {
		return required(node, name).asString();
	}

	private static Optional<String> text(JsonNode node, String name) {
		JsonNode value = node.get(name);
		return (value == null || value.isNull()) ? Optional.empty() : Optional.of(value.asString());
	}

}
