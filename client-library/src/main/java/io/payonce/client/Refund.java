package io.payonce.client;

import java.time.Instant;
import java.util.Currency;
import java.util.Optional;

/**
 * A refund's receipt (the {@code Refund} schema of {@code docs/openapi.json}).
 *
 * @param id the service's id
 * @param paymentId the payment refunded
 * @param amount minor units of the payment's currency
 * @param currency the payment's currency
 * @param reason the reason the request gave, or empty
 * @param status the status
 * @param providerReference the provider's id of the refund, or empty while none is known
 * @param createdAt when the refund was created
 */
public record Refund(RefundId id, PaymentId paymentId, long amount, Currency currency, Optional<RefundReason> reason,
		Status status, Optional<String> providerReference, Instant createdAt) {

}
