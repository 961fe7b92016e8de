package dev.payonce.idempotency;

import java.util.UUID;

/**
 * A write that prepares a resource for its next attempt without completing it (see
 * {@link Settlement.Reattempt} and {@link Action.Release}). The engine runs it inside the
 * release transaction, after locking the record for the attempt that still holds it; if
 * another attempt took the record over, it never runs. Whatever it writes must be flushed
 * before it returns.
 */
@FunctionalInterface
public interface ReleaseStep {

	/**
	 * Updates the resource.
	 * @param resourceId the resource the lease holds
	 */
	void prepare(UUID resourceId);

}
