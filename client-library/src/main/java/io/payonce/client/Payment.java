package io.payonce.client;

import java.time.Instant;
import java.util.Currency;
import java.util.Optional;

/**
 * A payment's receipt (the {@code Payment} schema of {@code docs/openapi.json}). A
 * replayed {@code 201} shows the receipt as it was when the payment completed; a read
 * shows it now.
 *
 * @param id the service's id
 * @param orderId the caller's order id
 * @param amount minor units of the currency (ISO 4217 exponent: 1200 ILS is 12.00 ILS)
 * @param currency the currency
 * @param refundedAmount minor units that succeeded refunds returned, 0 to {@code amount}
 * @param status the status
 * @param providerReference the provider's id of the charge, or empty while none is known
 * @param createdAt when the payment was created
 */
public record Payment(PaymentId id, String orderId, long amount, Currency currency, long refundedAmount, Status status,
		Optional<String> providerReference, Instant createdAt) {

}
