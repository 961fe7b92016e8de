package dev.payonce.payment.web;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The body of {@code POST /payments} after its JSON types were checked, before its values
 * are (docs/design.md section 2). Bean Validation checks the rules of the text members;
 * the amount's range is the reader's ({@link PaymentRequestReader#amount}), which never
 * lets an amount out of range reach this record.
 *
 * @param orderId 1-64 of {@code [A-Za-z0-9._:-]}
 * @param amount minor units, 1 to 99 999 999 999
 * @param currency an ISO 4217 alphabetic code in any letter case
 * @param paymentMethod an optional provider token, 1-64 of {@code [A-Za-z0-9_]}
 */
record PaymentRequest(
		@NotNull(message = "is required") @Pattern(regexp = "[A-Za-z0-9._:-]{1,64}",
				message = "must be 1-64 characters of letters, digits and ._:-") @Nullable String orderId,
		@NotNull(message = "is required") @Nullable Long amount,
		@NotNull(message = "is required") @Pattern(regexp = "[A-Za-z]{3}",
				message = "must be an ISO 4217 alphabetic code") @Nullable String currency,
		@Pattern(regexp = "[A-Za-z0-9_]{1,64}",
				message = "must be 1-64 characters of letters, digits and _") @Nullable String paymentMethod) {

}
