package dev.payonce.refund;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.payonce.client.ClientId;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.RequestFingerprint;
import dev.payonce.payment.PaymentId;
import dev.payonce.provider.Money;
import dev.payonce.provider.RefundReason;

/**
 * A validated request to refund a payment (docs/design.md section 8).
 *
 * @param clientId the calling client
 * @param idempotencyKey the client's idempotency key
 * @param paymentId the payment to refund
 * @param amount minor units to refund, 1 to {@value Money#MAX_MINOR_UNITS}, or
 * {@code null} for all that remains refundable
 * @param reason the client's reason, if any
 */
public record RefundCommand(ClientId clientId, IdempotencyKey idempotencyKey, PaymentId paymentId,
		@Nullable Long amount, @Nullable RefundReason reason) {

	/** The route every refund is fingerprinted with. */
	public static final String ROUTE = "/payments/{id}/refunds";

	/**
	 * The request fingerprint: method, route, payment and every business field. An
	 * omitted amount ("all that remains") differs from any explicit one.
	 * @return the fingerprint
	 */
	public RequestFingerprint fingerprint() {
		return RequestFingerprint.of("POST", ROUTE,
				Map.of("paymentId", this.paymentId.toString(), "amount",
						(this.amount != null) ? Long.toString(this.amount) : "remaining", "reason",
						(this.reason != null) ? this.reason.wireName() : ""));
	}

}
