package dev.payonce.payment;

import java.util.HashMap;
import java.util.Map;

import dev.payonce.client.ClientId;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.RequestFingerprint;
import dev.payonce.provider.CaptureMethod;
import dev.payonce.provider.Money;

/**
 * A validated request to create a payment (docs/design.md section 2).
 *
 * @param clientId the calling client
 * @param idempotencyKey the client's idempotency key
 * @param orderId the client's order id, 1-64 of {@code [A-Za-z0-9._:-]}
 * @param amount the amount in minor units
 * @param paymentMethod the provider payment method token, already defaulted when the
 * client omitted it
 * @param capture charge at once (the default) or authorize for later captures
 * (docs/design.md section 15)
 */
public record PaymentCommand(ClientId clientId, IdempotencyKey idempotencyKey, String orderId, Money amount,
		String paymentMethod, CaptureMethod capture) {

	/**
	 * A payment captured at once.
	 * @param clientId the calling client
	 * @param idempotencyKey the client's idempotency key
	 * @param orderId the client's order id
	 * @param amount the amount in minor units
	 * @param paymentMethod the provider payment method token
	 */
	public PaymentCommand(ClientId clientId, IdempotencyKey idempotencyKey, String orderId, Money amount,
			String paymentMethod) {
		this(clientId, idempotencyKey, orderId, amount, paymentMethod, CaptureMethod.AUTOMATIC);
	}

	/** The payment method used when a request names none. */
	public static final String DEFAULT_PAYMENT_METHOD = "pm_card_visa";

	/**
	 * The request fingerprint: method, route and every business field in canonical
	 * spelling. An omitted payment method and the default one fingerprint the same, and
	 * so do an omitted {@code capture} and {@code automatic}: the fingerprint of an
	 * automatic payment is the one it had before manual capture existed, so a key stored
	 * then still replays.
	 * @return the fingerprint
	 */
	public RequestFingerprint fingerprint() {
		Map<String, String> fields = new HashMap<>(
				Map.of("orderId", this.orderId, "amount", Long.toString(this.amount.minorUnits()), "currency",
						this.amount.currency().getCurrencyCode(), "paymentMethod", this.paymentMethod));
		if (this.capture == CaptureMethod.MANUAL) {
			fields.put("capture", this.capture.wireName());
		}
		return RequestFingerprint.of("POST", "/payments", fields);
	}

}
