/**
 * The generic idempotency engine: {@link dev.payonce.idempotency.IdempotencyKey},
 * {@link dev.payonce.idempotency.RequestFingerprint}, and the claim, lease, takeover,
 * completion and replay of one operation per (scope, idempotency key) in PostgreSQL
 * (docs/design.md sections 3 and 4).
 *
 * <p>
 * {@link dev.payonce.idempotency.IdempotencyService#execute} is the one entry point: an
 * operation supplies its steps ({@link dev.payonce.idempotency.IdempotentOperation}) and
 * its {@link dev.payonce.idempotency.ReconciliationStep}; the engine owns the sequence,
 * the transactions and the fence. It depends on no other business module (its scope is
 * its own {@link dev.payonce.idempotency.IdempotencyScope}); payments, refunds and
 * providers' webhook events are its operations. The {@code web} sub-package is its HTTP
 * support.
 */
@NullMarked
package dev.payonce.idempotency;

import org.jspecify.annotations.NullMarked;
