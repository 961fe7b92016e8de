package dev.payonce.capture.web;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of {@code POST /payments/{id}/captures} as the OpenAPI document shows it; the
 * service reads the JSON itself ({@link CaptureRequestReader}).
 */
@Schema(name = "CaptureRequest", additionalProperties = Schema.AdditionalPropertiesValue.FALSE,
		description = "Unknown and duplicate members are rejected. Omit the body, or send {}, to capture all "
				+ "that remains.")
record CaptureRequestDocument(@Schema(requiredMode = Schema.RequiredMode.NOT_REQUIRED, format = "int64", minimum = "1",
		maximum = "99999999999",
		description = "Minor units of the payment's currency; all that remains capturable when omitted",
		example = "800") long amount) {

}
