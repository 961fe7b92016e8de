package dev.payonce.capture.web;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.stereotype.Component;

import dev.payonce.capture.CaptureCommand;
import dev.payonce.client.ClientId;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.web.FieldError;
import dev.payonce.payment.web.PaymentProblems;
import dev.payonce.payment.web.PaymentRequestReader;
import dev.payonce.web.Problems;

/**
 * Reads the body of {@code POST /payments/{id}/captures} as strictly as a refund's
 * (docs/design.md section 15): a JSON object with no unknown or duplicate members and an
 * optional {@code amount}, a JSON integer in minor units when present, never
 * {@code null}. An empty body is an empty object: capture all that remains.
 */
@Component
class CaptureRequestReader {

	private final PaymentRequestReader json;

	CaptureRequestReader(PaymentRequestReader json) {
		this.json = json;
	}

	/**
	 * Reads and validates a body.
	 * @param body the raw body, at most 16 KiB; empty means {@code {}}
	 * @return the command
	 * @throws dev.payonce.web.ApiProblem 400 {@code invalid-request} listing every field
	 * error
	 */
	CaptureCommand read(ClientId clientId, IdempotencyKey key, PaymentId paymentId, byte[] body) {
		if (body.length == 0) {
			return new CaptureCommand(clientId, key, paymentId, null);
		}
		JsonNode root = this.json.parse(body);
		List<FieldError> errors = new ArrayList<>();
		for (Map.Entry<String, JsonNode> member : root.properties()) {
			if (!"amount".equals(member.getKey())) {
				errors.add(new FieldError(Problems.echoed(member.getKey()), "is not a known field"));
			}
		}
		@Nullable Long amount = PaymentRequestReader.amount(root, errors);
		if (!errors.isEmpty()) {
			errors.sort(Comparator.comparing(FieldError::field).thenComparing(FieldError::message));
			throw PaymentProblems.invalidRequest(errors);
		}
		return new CaptureCommand(clientId, key, paymentId, amount);
	}

}
