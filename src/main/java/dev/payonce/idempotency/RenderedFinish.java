package dev.payonce.idempotency;

import java.util.UUID;

/**
 * A {@link FinishStep} whose response is known before the completion transaction writes
 * anything: the act step read the resource, and moved it and rendered the response in
 * memory (for payments and refunds, {@code FinishOverRead}). The engine then fences and
 * stores the response with one statement, the record's conditional {@code UPDATE}, and
 * writes the resource after it in the same transaction: one round trip less than locking
 * the record first (docs/design.md section 4, issue 13). A stale attempt writes nothing,
 * as with every finish step.
 */
public interface RenderedFinish extends FinishStep {

	/**
	 * The response to store; rendered once, the same on every call, whether or not a
	 * transaction is active.
	 * @return the response
	 */
	StoredResponse response();

	/**
	 * Writes the resource as {@link #response()} describes it, inside the completion
	 * transaction, after the record was completed. Whatever it writes must be flushed
	 * before it returns.
	 * @param resourceId the resource the lease holds
	 * @return {@code true} if written; {@code false} if the resource changed since the
	 * act step read it and nothing was written: the engine then runs
	 * {@link #finish(UUID)} in the same transaction and stores its response instead
	 */
	boolean write(UUID resourceId);

	/**
	 * The fallback after {@link #write} returned {@code false}: reads the resource again
	 * in the transaction, moves and writes it, and renders its response.
	 * @param resourceId the resource the lease holds
	 * @return the response to store instead of {@link #response()}
	 */
	@Override
	StoredResponse finish(UUID resourceId);

}
