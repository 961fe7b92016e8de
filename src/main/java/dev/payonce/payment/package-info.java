/**
 * The payment aggregate and its use case: {@link dev.payonce.payment.PaymentService}
 * claims the idempotency key, charges through the
 * {@link dev.payonce.payment.PaymentGateway} port outside any transaction, and completes
 * payment and record together (docs/design.md sections 2 to 5). The {@code web}
 * sub-package holds the HTTP API.
 */
@NullMarked
package dev.payonce.payment;

import org.jspecify.annotations.NullMarked;
