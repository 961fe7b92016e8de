package dev.payonce.payment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;

import dev.payonce.idempotency.StoredResponse;

/**
 * Renders the final answers that are stored with the idempotency record and replayed byte
 * for byte: 201 with the receipt and {@code Location}, 402 with the
 * {@code payment-declined} problem (docs/design.md section 2).
 */
@Component
public class PaymentResponses {

	private final JsonMapper json;

	PaymentResponses(JsonMapper json) {
		this.json = json;
	}

	/**
	 * The JSON receipt of a payment, as {@code GET /payments/{id}} and a 201 show it.
	 * @param payment the payment
	 * @return the receipt's JSON, UTF-8 text
	 */
	public String receipt(Payment payment) {
		return this.json.writeValueAsString(PaymentReceipt.of(payment));
	}

	StoredResponse created(Payment payment) {
		return FinalResponses.created("/payments/" + payment.id(), receipt(payment));
	}

	StoredResponse declined(Payment payment) {
		return paymentRequired(payment, "payment-declined", "Payment declined",
				"The payment provider declined the payment.",
				Collections.singletonMap("declineCode", payment.declineCode()));
	}

	StoredResponse failed(Payment payment) {
		return paymentRequired(payment, "payment-failed", "Payment failed",
				"The payment provider never processed this payment and nothing was charged. "
						+ "Use a new Idempotency-Key to try again.",
				Map.of());
	}

	/**
	 * A final 402 problem about one payment, rendered once and stored for every replay.
	 */
	private static StoredResponse paymentRequired(Payment payment, String slug, String title, String detail,
			Map<String, @Nullable Object> extensions) {
		Map<String, @Nullable Object> members = new LinkedHashMap<>();
		members.put("paymentId", payment.id().toString());
		members.putAll(extensions);
		return FinalResponses.paymentRequired(slug, title, detail, "/payments", members);
	}

}
