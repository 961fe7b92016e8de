package dev.payonce.capture;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * The receipt of a capture as the API shows it (docs/design.md section 15).
 *
 * @param id the capture id
 * @param paymentId the captured payment
 * @param amount the captured amount in minor units
 * @param currency the ISO 4217 code of the payment, upper case
 * @param status the capture status
 * @param providerReference the provider's id of the capture, {@code null} while none is
 * known
 * @param createdAt the creation time, ISO-8601 in UTC
 */
@Schema(name = "Capture", description = "A capture of a manual payment of the calling client. New members may appear.",
		requiredProperties = { "id", "paymentId", "amount", "currency", "status", "providerReference", "createdAt" })
public record CaptureReceipt(@Schema(format = "uuid", example = "3d1f7c2a-5b6e-4f80-9a1b-2c3d4e5f6a7b") String id,
		@Schema(format = "uuid", example = "6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a") String paymentId,
		@Schema(format = "int64", minimum = "1", maximum = "99999999999",
				description = "Minor units of the payment's currency", example = "800") long amount,
		@Schema(pattern = "^[A-Z]{3}$", description = "ISO 4217 alphabetic code of the payment, upper case",
				example = "ILS") String currency,
		CaptureStatus status,
		@Schema(nullable = true, description = "The provider's id of the capture; null while none is known",
				example = "sim_cp_4944aaaed185a3582503ee4f") @Nullable String providerReference,
		@Schema(format = "date-time", description = "When the capture was created, UTC",
				example = "2026-11-30T11:12:57.680959Z") String createdAt) {

	/**
	 * The receipt of a capture.
	 * @param capture the capture
	 * @return its receipt
	 */
	public static CaptureReceipt of(Capture capture) {
		return new CaptureReceipt(capture.id().toString(), capture.paymentId().toString(),
				capture.amount().minorUnits(), capture.amount().currency().getCurrencyCode(), capture.status(),
				capture.providerReference(), capture.createdAt().toString());
	}

}
