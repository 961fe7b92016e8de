package dev.payonce.capture.web;

import java.net.http.HttpRequest;
import java.util.UUID;

import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/** The captures API over real HTTP, for the tests of {@code capture.web}. */
final class CapturesApi {

	private final PaymentsApi api;

	CapturesApi(PaymentsApi api) {
		this.api = api;
	}

	/** A manual payment of {@code amount} ILS minor units, AUTHORIZED; its id. */
	String authorize(long amount) {
		Reply paid = this.api.pay("authorize-" + UUID.randomUUID(), "{\"orderId\":\"order-" + UUID.randomUUID()
				+ "\",\"amount\":" + amount + ",\"currency\":\"ILS\",\"capture\":\"manual\"}");
		assertThat(paid.status()).isEqualTo(201);
		assertThat(paid.field("status")).isEqualTo("AUTHORIZED");
		return paid.field("id");
	}

	/** POST /payments/{id}/captures with a JSON body. */
	Reply capture(String paymentId, String key, String json) {
		return this.api.send(this.api.request("/payments/" + paymentId + "/captures")
			.header("Idempotency-Key", key)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json)));
	}

	/** POST /payments/{id}/captures without a body. */
	Reply captureAll(String paymentId, String key) {
		return this.api.send(this.api.request("/payments/" + paymentId + "/captures")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.noBody()));
	}

	/** POST /payments/{id}/void, without a body. */
	Reply voidPayment(String paymentId, String key) {
		return this.api.send(this.api.request("/payments/" + paymentId + "/void")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.noBody()));
	}

	Reply get(String path) {
		return this.api.get(path);
	}

}
