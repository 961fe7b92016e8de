package dev.payonce.capture;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * The receipt of a void as the API shows it (docs/design.md section 15).
 *
 * @param id the void id
 * @param paymentId the payment whose authorization it released
 * @param status the void's status
 * @param providerReference the provider's id of the void, {@code null} while none is
 * known
 * @param createdAt the creation time, ISO-8601 in UTC
 */
@Schema(name = "Void", description = "A void of a manual payment's authorization. New members may appear.",
		requiredProperties = { "id", "paymentId", "status", "providerReference", "createdAt" })
public record VoidReceipt(@Schema(format = "uuid", example = "9b1c7c2a-5b6e-4f80-9a1b-2c3d4e5f6a7b") String id,
		@Schema(format = "uuid", example = "6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a") String paymentId, VoidStatus status,
		@Schema(nullable = true, description = "The provider's id of the void; null while none is known",
				example = "sim_vd_4944aaaed185a3582503ee4f") @Nullable String providerReference,
		@Schema(format = "date-time", description = "When the void was created, UTC",
				example = "2026-11-30T11:12:57.680959Z") String createdAt) {

	/**
	 * The receipt of a void.
	 * @param paymentVoid the void
	 * @return its receipt
	 */
	public static VoidReceipt of(PaymentVoid paymentVoid) {
		return new VoidReceipt(paymentVoid.id().toString(), paymentVoid.paymentId().toString(), paymentVoid.status(),
				paymentVoid.providerReference(), paymentVoid.createdAt().toString());
	}

}
