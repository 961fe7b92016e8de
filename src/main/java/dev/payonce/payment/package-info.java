/**
 * Payments, their refunds and providers' webhook events, the three operations of the
 * idempotency engine: {@link dev.payonce.payment.PaymentService} charges and
 * {@link dev.payonce.refund.RefundService} refunds through the
 * {@link dev.payonce.provider.PaymentGateway} port outside any transaction, and
 * {@link dev.payonce.payment.PaymentWebhooks} applies each event once, each supplying
 * only its steps to {@link dev.payonce.idempotency.IdempotencyService#execute}
 * (docs/design.md sections 2 to 5, 8 and 10). The {@code web} sub-package holds the HTTP
 * API.
 */
@NullMarked
package dev.payonce.payment;

import org.jspecify.annotations.NullMarked;
