package dev.payonce.payment.web;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of {@code POST /payments} as the OpenAPI document shows it. The service reads
 * the JSON itself ({@link PaymentRequestReader}), so this type only describes it.
 */
@Schema(name = "PaymentRequest", additionalProperties = Schema.AdditionalPropertiesValue.FALSE,
		description = "Unknown and duplicate members are rejected.")
record PaymentRequestDocument(
		@Schema(requiredMode = Schema.RequiredMode.REQUIRED, pattern = "^[A-Za-z0-9._:-]{1,64}$",
				example = "order-123") String orderId,
		@Schema(requiredMode = Schema.RequiredMode.REQUIRED, format = "int64", minimum = "1", maximum = "99999999999",
				description = "Minor units of the currency (ISO 4217 exponent): 1200 ILS is 12.00 ILS. "
						+ "A JSON integer: fractions, exponents and strings are rejected, never rounded.",
				example = "1200") long amount,
		@Schema(requiredMode = Schema.RequiredMode.REQUIRED, pattern = "^[A-Za-z]{3}$",
				description = "ISO 4217 alphabetic code with minor units, any letter case",
				example = "ILS") String currency,
		@Schema(requiredMode = Schema.RequiredMode.NOT_REQUIRED, pattern = "^[A-Za-z0-9_]{1,64}$",
				description = "Provider payment method token; default pm_card_visa",
				example = "pm_card_visa") String paymentMethod,
		@Schema(requiredMode = Schema.RequiredMode.NOT_REQUIRED, allowableValues = {
				"automatic", "manual" },
				description = "automatic (the default) charges at once; manual only authorizes: the payment "
						+ "answers AUTHORIZED and its money is taken by captures or released by a void",
				example = "automatic") String capture){

}
