/**
 * Refunds of a succeeded payment, an operation of the idempotency engine:
 * {@link dev.payonce.refund.RefundService} reserves the amount on the payment in the
 * claim, refunds through the {@link dev.payonce.provider.PaymentGateway} port outside any
 * transaction and settles the reservation in the fenced completion (docs/design.md
 * section 8). It depends on {@code payment} (the refunded payment), never the reverse;
 * the {@code web} sub-package holds its HTTP API.
 */
@NullMarked
package dev.payonce.refund;

import org.jspecify.annotations.NullMarked;
