/**
 * The generic idempotency engine: {@link dev.payonce.idempotency.IdempotencyKey},
 * {@link dev.payonce.idempotency.RequestFingerprint}, and the claim, lease, takeover,
 * completion and replay of one operation per (client, idempotency key) in PostgreSQL
 * (docs/design.md sections 3 and 4).
 *
 * <p>
 * It knows nothing of payments: any operation (a refund, a message consumer) can use
 * {@link dev.payonce.idempotency.IdempotencyService} unchanged.
 */
@NullMarked
package dev.payonce.idempotency;

import org.jspecify.annotations.NullMarked;
