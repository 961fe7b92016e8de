package io.payonce.client;

import java.util.Currency;
import java.util.Objects;
import java.util.Optional;

/**
 * What to charge (the {@code PaymentRequest} schema). Every attempt and every later call
 * with the same key must send the same request: the service answers
 * {@code 422 idempotency-key-reused} to the same key with another request.
 *
 * @param orderId the caller's order id: 1 to 64 letters, digits, {@code .}, {@code _},
 * {@code :} or {@code -}
 * @param amount minor units of the currency (ISO 4217 exponent), 1 to 99 999 999 999
 * @param currency the currency (one with minor units)
 * @param paymentMethod a provider payment method token, or empty for the service's
 * default ({@code pm_card_visa})
 */
public record PaymentRequest(String orderId, long amount, Currency currency, Optional<String> paymentMethod) {

	/** The largest amount the service takes, in minor units. */
	public static final long MAX_AMOUNT = 99_999_999_999L;

	/**
	 * Checks the values the service would refuse, so that a wrong request fails before it
	 * is sent.
	 * @throws IllegalArgumentException if a value breaks its rule
	 */
	public PaymentRequest {
		Objects.requireNonNull(orderId, "orderId");
		Objects.requireNonNull(currency, "currency");
		Objects.requireNonNull(paymentMethod, "paymentMethod");
		if (!orderId.matches("[A-Za-z0-9._:-]{1,64}")) {
			throw new IllegalArgumentException(
					"orderId has 1 to 64 letters, digits, '.', '_', ':' or '-', got '" + orderId + "'");
		}
		if (amount < 1 || amount > MAX_AMOUNT) {
			throw new IllegalArgumentException("amount is 1 to " + MAX_AMOUNT + " minor units, got " + amount);
		}
		paymentMethod.ifPresent((method) -> {
			if (!method.matches("[A-Za-z0-9_]{1,64}")) {
				throw new IllegalArgumentException("paymentMethod has 1 to 64 letters, digits or '_'");
			}
		});
	}

	/**
	 * A payment with the service's default payment method.
	 * @param orderId the caller's order id
	 * @param amount minor units
	 * @param currency an ISO 4217 code, such as {@code ILS}
	 * @return the request
	 */
	public static PaymentRequest of(String orderId, long amount, String currency) {
		return new PaymentRequest(orderId, amount, Currency.getInstance(currency), Optional.empty());
	}

	/**
	 * This request with a payment method token.
	 * @param paymentMethod the provider's token, such as {@code pm_card_visa}
	 * @return a new request
	 */
	public PaymentRequest withPaymentMethod(String paymentMethod) {
		return new PaymentRequest(this.orderId, this.amount, this.currency, Optional.of(paymentMethod));
	}

}
