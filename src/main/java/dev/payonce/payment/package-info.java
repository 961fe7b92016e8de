/**
 * Payments, an operation of the idempotency engine:
 * {@link dev.payonce.payment.PaymentService} charges through the
 * {@link dev.payonce.provider.PaymentGateway} port outside any transaction, supplying
 * only its steps to {@link dev.payonce.idempotency.IdempotencyService#execute}, and
 * {@link dev.payonce.payment.ExtraChargeSweep} checks the provider for a second charge
 * (docs/design.md sections 2 to 5). It knows no operation built on it (refunds, webhook
 * events); the {@code web} sub-package holds the HTTP API and what the refunds API shares
 * with it.
 */
@NullMarked
package dev.payonce.payment;

import org.jspecify.annotations.NullMarked;
