package dev.payonce.refund;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

import dev.payonce.provider.RefundReason;

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
@Schema(name = "Refund", description = "A refund of a payment of the calling client. New members may appear.",
		requiredProperties = { "id", "paymentId", "amount", "currency", "reason", "status", "providerReference",
				"createdAt" })
public record RefundReceipt(@Schema(format = "uuid", example = "0f4b7d52-7f1e-4d0e-9b1a-2c3d4e5f6a7b") String id,
		@Schema(format = "uuid", example = "6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a") String paymentId,
		@Schema(format = "int64", minimum = "1", maximum = "99999999999",
				description = "Minor units of the payment's currency", example = "300") long amount,
		@Schema(pattern = "^[A-Z]{3}$", description = "ISO 4217 alphabetic code of the payment, upper case",
				example = "ILS") String currency,
		@Schema(nullable = true, allowableValues = {
				"duplicate", "fraudulent", "requested_by_customer" },
				description = "The client's reason; null when none was given",
				example = "requested_by_customer") @Nullable String reason,
		RefundStatus status,
		@Schema(nullable = true, description = "The provider's id of the refund; null while none is known",
				example = "sim_re_4944aaaed185a3582503ee4f") @Nullable String providerReference,
		@Schema(format = "date-time", description = "When the refund was created, UTC",
				example = "2026-11-30T11:12:57.680959Z") String createdAt){

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
