package dev.payonce.capture;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.payonce.client.ClientId;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.RequestFingerprint;
import dev.payonce.payment.PaymentId;
import dev.payonce.provider.Money;

/**
 * A validated request to capture a manual payment's authorization (docs/design.md section
 * 15).
 *
 * @param clientId the calling client
 * @param idempotencyKey the client's idempotency key
 * @param paymentId the payment to capture
 * @param amount minor units to capture, 1 to {@value Money#MAX_MINOR_UNITS}, or
 * {@code null} for all that remains capturable
 */
public record CaptureCommand(ClientId clientId, IdempotencyKey idempotencyKey, PaymentId paymentId,
		@Nullable Long amount) {

	/** The route every capture is fingerprinted with. */
	public static final String ROUTE = "/payments/{id}/captures";

	/**
	 * The request fingerprint: method, route, payment and amount. An omitted amount ("all
	 * that remains") differs from any explicit one.
	 * @return the fingerprint
	 */
	public RequestFingerprint fingerprint() {
		return RequestFingerprint.of("POST", ROUTE, Map.of("paymentId", this.paymentId.toString(), "amount",
				(this.amount != null) ? Long.toString(this.amount) : "remaining"));
	}

}
