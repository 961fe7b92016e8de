package dev.payonce.capture;

import java.util.Map;

import dev.payonce.client.ClientId;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.RequestFingerprint;
import dev.payonce.payment.PaymentId;

/**
 * A validated request to void a manual payment's authorization (docs/design.md section
 * 15).
 *
 * @param clientId the calling client
 * @param idempotencyKey the client's idempotency key
 * @param paymentId the payment whose authorization to release
 */
public record VoidCommand(ClientId clientId, IdempotencyKey idempotencyKey, PaymentId paymentId) {

	/** The route every void is fingerprinted with. */
	public static final String ROUTE = "/payments/{id}/void";

	/**
	 * The request fingerprint: method, route and payment.
	 * @return the fingerprint
	 */
	public RequestFingerprint fingerprint() {
		return RequestFingerprint.of("POST", ROUTE, Map.of("paymentId", this.paymentId.toString()));
	}

}
