package dev.payonce.refund.web;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of {@code POST /payments/{id}/refunds} as the OpenAPI document shows it. The
 * service reads the JSON itself ({@link RefundRequestReader}), so this type only
 * describes it.
 */
@Schema(name = "RefundRequest", additionalProperties = Schema.AdditionalPropertiesValue.FALSE,
		description = "Optional; an empty body refunds all that remains. Unknown and duplicate members are rejected.")
record RefundRequestDocument(
		@Schema(requiredMode = Schema.RequiredMode.NOT_REQUIRED, minimum = "1", maximum = "99999999999",
				description = "Minor units of the payment's currency; omitted: all that remains refundable. "
						+ "A JSON integer: fractions, exponents and strings are rejected, never rounded.",
				example = "300") long amount,
		@Schema(requiredMode = Schema.RequiredMode.NOT_REQUIRED, allowableValues = {
				"duplicate", "fraudulent", "requested_by_customer" }, example = "requested_by_customer") String reason){

}
