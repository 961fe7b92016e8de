package dev.payonce.payment;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

import dev.payonce.provider.CaptureMethod;

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
 * @param capture {@code manual} for a payment authorized for later captures; absent
 * (never {@code null} in JSON) for one charged at once, whose receipt is the one it had
 * before manual capture existed (docs/design.md section 15)
 * @param capturableAmount what captures may still take, in minor units; absent for an
 * automatic payment
 * @param capturedAmount what captures took, in minor units; absent for an automatic
 * payment
 * @param authorizationExpiresAt when the hold lapses, ISO-8601 in UTC; absent for an
 * automatic payment
 */
@Schema(name = "Payment", description = "A payment of the calling client. New members may appear.",
		requiredProperties = { "id", "orderId", "amount", "currency", "status", "providerReference", "createdAt" })
public record PaymentReceipt(@Schema(format = "uuid", example = "6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a") String id,
		@Schema(pattern = "^[A-Za-z0-9._:-]{1,64}$", example = "order-123") String orderId,
		@Schema(format = "int64", minimum = "1", maximum = "99999999999",
				description = "Minor units of the currency (ISO 4217 exponent): 1200 ILS is 12.00 ILS",
				example = "1200") long amount,
		@Schema(pattern = "^[A-Z]{3}$", description = "ISO 4217 alphabetic code, upper case",
				example = "ILS") String currency,
		@Schema(format = "int64", minimum = "0", maximum = "99999999999",
				description = "What succeeded refunds returned, in minor units of the currency; 0 to amount. "
						+ "Not required: a 201 stored before refunds existed is replayed without it",
				example = "0") long refundedAmount,
		PaymentStatus status,
		@Schema(nullable = true, description = "The provider's id of the charge; null while none is known",
				example = "sim_ch_5f0e8c1d2b3a4f5e6d7c8b9a") @Nullable String providerReference,
		@Schema(format = "date-time", description = "When the payment was created, UTC",
				example = "2026-11-29T19:49:31.093136Z") String createdAt,
		@JsonInclude(JsonInclude.Include.NON_NULL) @Schema(allowableValues = "manual",
				description = "manual for a payment authorized for later captures; absent for one charged at once",
				example = "manual") @Nullable String capture,
		@JsonInclude(JsonInclude.Include.NON_NULL) @Schema(format = "int64", minimum = "0", maximum = "99999999999",
				description = "Manual payments only: what captures may still take, in minor units (the amount "
						+ "less captured and in-flight captures) while AUTHORIZED, else 0",
				example = "1200") @Nullable Long capturableAmount,
		@JsonInclude(JsonInclude.Include.NON_NULL) @Schema(format = "int64", minimum = "0", maximum = "99999999999",
				description = "Manual payments only: what captures took, in minor units",
				example = "0") @Nullable Long capturedAmount,
		@JsonInclude(JsonInclude.Include.NON_NULL) @Schema(format = "date-time",
				description = "Manual payments only: when the provider's hold lapses, UTC",
				example = "2026-12-06T19:49:31.093136Z") @Nullable String authorizationExpiresAt) {

	/**
	 * The receipt of a payment.
	 * @param payment the payment
	 * @return its receipt
	 */
	public static PaymentReceipt of(Payment payment) {
		boolean manual = payment.captureMethod() == CaptureMethod.MANUAL;
		Instant expiresAt = payment.authorizationExpiresAt();
		return new PaymentReceipt(payment.id().toString(), payment.orderId(), payment.amount().minorUnits(),
				payment.amount().currency().getCurrencyCode(), payment.refundedAmount(), payment.status(),
				payment.providerReference(), payment.createdAt().toString(),
				manual ? CaptureMethod.MANUAL.wireName() : null, manual ? payment.capturableAmount() : null,
				manual ? payment.capturedAmount() : null, (manual && expiresAt != null) ? expiresAt.toString() : null);
	}

}
