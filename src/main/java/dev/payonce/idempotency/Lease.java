package dev.payonce.idempotency;

import java.time.Instant;
import java.util.UUID;

/**
 * The right, held by one attempt, to act on one idempotency key until {@code lockedUntil}
 * (docs/design.md section 4). Completion and release are fenced by {@code attempt}: once
 * another attempt has taken the record over, this lease changes nothing.
 *
 * @param scope whose key it is
 * @param operation the operation the record belongs to, for example {@code payment}
 * @param key the idempotency key
 * @param resourceId the id of what the operation creates (for payments, the payment id);
 * the same on every attempt
 * @param attempt the attempt number, 1 for the first claim and one more for each takeover
 * @param lockedUntil when the lease ends by this instance's clock (UTC): its reading
 * before the claim or takeover was sent, plus the lease. The lease that fences other
 * instances is the database's, which starts when the statement arrives and so ends no
 * earlier (docs/design.md section 4, "One clock for leases")
 */
public record Lease(IdempotencyScope scope, String operation, IdempotencyKey key, UUID resourceId, int attempt,
		Instant lockedUntil) {

}
