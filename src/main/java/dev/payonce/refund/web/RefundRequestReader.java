package dev.payonce.refund.web;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.stereotype.Component;

import dev.payonce.client.ClientId;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.web.FieldError;
import dev.payonce.payment.web.PaymentProblems;
import dev.payonce.payment.web.PaymentRequestReader;
import dev.payonce.refund.RefundCommand;
import dev.payonce.provider.RefundReason;
import dev.payonce.web.Problems;

/**
 * Reads the body of {@code POST /payments/{id}/refunds} as strictly as a payment's
 * (docs/design.md section 8): a JSON object with no unknown or duplicate members;
 * {@code amount} optional, a JSON integer in minor units when present (never a fraction,
 * exponent or string); {@code reason} optional, one of {@code duplicate},
 * {@code fraudulent}, {@code requested_by_customer}. An optional member is omitted, never
 * JSON {@code null} (a null amount would otherwise refund everything). An empty body is
 * an empty object: refund all that remains. Every problem found is reported.
 */
@Component
class RefundRequestReader {

	private static final Set<String> FIELDS = Set.of("amount", "reason");

	private final PaymentRequestReader json;

	RefundRequestReader(PaymentRequestReader json) {
		this.json = json;
	}

	/**
	 * Reads and validates a body.
	 * @param body the raw body, at most 16 KiB; empty means {@code {}}
	 * @return the command
	 * @throws dev.payonce.web.ApiProblem 400 {@code invalid-request} listing every field
	 * error
	 */
	RefundCommand read(ClientId clientId, IdempotencyKey key, PaymentId paymentId, byte[] body) {
		if (body.length == 0) {
			return new RefundCommand(clientId, key, paymentId, null, null);
		}
		JsonNode root = this.json.parse(body);
		List<FieldError> errors = new ArrayList<>();
		for (Map.Entry<String, JsonNode> member : root.properties()) {
			if (!FIELDS.contains(member.getKey())) {
				errors.add(new FieldError(Problems.echoed(member.getKey()), "is not a known field"));
			}
		}
		@Nullable Long amount = PaymentRequestReader.amount(root, errors);
		@Nullable RefundReason reason = reason(root, errors);
		if (!errors.isEmpty()) {
			errors.sort(Comparator.comparing(FieldError::field).thenComparing(FieldError::message));
			throw PaymentProblems.invalidRequest(errors);
		}
		return new RefundCommand(clientId, key, paymentId, amount, reason);
	}

	private static @Nullable RefundReason reason(JsonNode root, List<FieldError> errors) {
		int before = errors.size();
		@Nullable String text = PaymentRequestReader.text(root, "reason", errors);
		if (text == null) {
			return null;
		}
		return RefundReason.fromWireName(text).orElseGet(() -> {
			if (errors.size() == before) {
				errors.add(new FieldError("reason", "must be one of duplicate, fraudulent, requested_by_customer"));
			}
			return null;
		});
	}

}
