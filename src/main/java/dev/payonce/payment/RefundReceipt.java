package dev.payonce.payment;

import org.jspecify.annotations.Nullable;

/**
 * The receipt of a refund as the API shows it (docs/design.md section 8).
 *
 * @param id the refund id
 * @param paymentId the refunded payment
 * @param amount the refunded amount in minor units
 * @param currency the ISO 4217 code of the payment, upper case
 * @param reason the client's reason, {@code null} if none was given
 * @param status the refund status
 * @param providerReference the provider's id of the refund, {@code null} while none is
 * known
 * @param createdAt the creation time, ISO-8601 in UTC
 */
public record RefundReceipt(String id, String paymentId, long amount, String currency, @Nullable String reason,
		RefundStatus status, @Nullable String providerReference, String createdAt) {

	/**
	 * The receipt of a refund.
	 * @param refund the refund
	 * @return its receipt
	 */
	public static RefundReceipt of(Refund refund) {
		RefundReason reason = refund.reason();
		return new RefundReceipt(refund.id().toString(), refund.paymentId().toString(), refund.amount().minorUnits(),
				refund.amount().currency().getCurrencyCode(), (reason != null) ? reason.wireName() : null,
				refund.status(), refund.providerReference(), refund.createdAt().toString());
	}

}
