package dev.payonce.idempotency;

import java.util.UUID;

/**
 * The write that completes an operation. The engine runs it inside the completion
 * transaction, after locking the record for the attempt that still holds it; if another
 * attempt took the record over, it never runs. Whatever it writes must be flushed before
 * it returns (for JPA, {@code flush} or {@code saveAndFlush}), so that a constraint
 * failure rolls the completion back instead of surfacing at commit.
 */
@FunctionalInterface
public interface FinishStep {

	/**
	 * Updates the resource and renders the response to store.
	 * @param resourceId the resource the lease holds
	 * @return the response, stored with the record and replayed to every retry
	 */
	StoredResponse finish(UUID resourceId);

}
