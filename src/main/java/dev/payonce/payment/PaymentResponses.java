package dev.payonce.payment;

import java.net.URI;
import java.util.Collections;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

import dev.payonce.idempotency.StoredResponse;
import dev.payonce.web.Problems;

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
		return new StoredResponse(201, Map.of(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE,
				HttpHeaders.LOCATION, "/payments/" + payment.id()), receipt(payment));
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
	private StoredResponse paymentRequired(Payment payment, String slug, String title, String detail,
			Map<String, @Nullable Object> extensions) {
		ProblemDetail problem = Problems.of(HttpStatus.PAYMENT_REQUIRED, slug, title, detail);
		problem.setInstance(URI.create("/payments"));
		problem.setProperty("paymentId", payment.id().toString());
		extensions.forEach(problem::setProperty);
		return new StoredResponse(402, Map.of(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_PROBLEM_JSON_VALUE),
				Problems.json(problem));
	}

}
