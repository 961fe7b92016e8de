package dev.payonce.payment;

import org.jspecify.annotations.Nullable;

/**
 * The receipt of a payment as the API shows it (docs/design.md section 2).
 *
 * @param id the payment id
 * @param orderId the client's order id
 * @param amount the amount in minor units
 * @param currency the ISO 4217 code, upper case
 * @param refundedAmount what succeeded refunds returned, in minor units
 * @param status the payment status
 * @param providerReference the provider's id of the charge, {@code null} while none is
 * known
 * @param createdAt the creation time, ISO-8601 in UTC
 */
public record PaymentReceipt(String id, String orderId, long amount, String currency, long refundedAmount,
		PaymentStatus status, @Nullable String providerReference, String createdAt) {

	/**
	 * The receipt of a payment.
	 * @param payment the payment
	 * @return its receipt
	 */
	public static PaymentReceipt of(Payment payment) {
		return new PaymentReceipt(payment.id().toString(), payment.orderId(), payment.amount().minorUnits(),
				payment.amount().currency().getCurrencyCode(), payment.refundedAmount(), payment.status(),
				payment.providerReference(), payment.createdAt().toString());
	}

}
