package dev.payonce.idempotency;

import java.util.List;
import java.util.UUID;

/**
 * A {@link FinishStep} whose response and resource writes are known before the completion
 * writes anything: the act step read the resource, and moved it and rendered the response
 * in memory (for payments and refunds, {@code FinishOverRead}). The engine then completes
 * with one statement (docs/design.md section 4, "Completion in one statement"): it locks
 * the record if the lease's attempt still holds it, runs {@link #writes} one after the
 * other, each only if the one before wrote a row, and stores {@link #response()} only if
 * the last one did. A single write commits on its own (one round trip) while the pool
 * keeps sessions at READ COMMITTED; several run in a transaction that is rolled back
 * unless all wrote.
 *
 * <p>
 * If the lease is stale, nothing is written. If a write matched no row (the resource
 * changed since the act step read it), nothing is written either, and the engine
 * completes the slow way: it locks the record in a transaction and runs
 * {@link #finish(UUID)}, which reads the resource again, as a plain {@link FinishStep}
 * does.
 */
public interface RenderedFinish extends FinishStep {

	/**
	 * The response to store; rendered once, the same on every call, whether or not a
	 * transaction is active.
	 * @return the response
	 */
	StoredResponse response();

	/**
	 * The writes that move the resource as {@link #response()} describes it; the first is
	 * expected to be conditioned on the resource being as the act step read it (its
	 * version).
	 * @param resourceId the resource the lease holds
	 * @return the writes, in order; empty if the copy cannot be written (for example it
	 * was never stored), and then the engine runs {@link #finish(UUID)} instead
	 */
	List<ResourceWrite> writes(UUID resourceId);

	/**
	 * Runs after the completion made of {@link #writes} committed; not after a stale
	 * attempt, and not after {@link #finish(UUID)} (which announces its own completion).
	 * Does nothing by default.
	 * @param response the response stored
	 */
	default void written(StoredResponse response) {
	}

	/**
	 * The slow way, after a write matched no row: reads the resource again inside the
	 * fenced completion transaction, moves and writes it, and renders its response.
	 * @param resourceId the resource the lease holds
	 * @return the response to store instead of {@link #response()}
	 */
	@Override
	StoredResponse finish(UUID resourceId);

}
