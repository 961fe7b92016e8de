package dev.payonce.idempotency;

/**
 * How one operation settles its stale records (docs/design.md section 4, step 5).
 * Register one bean per operation; {@link IdempotencyReconciler} takes over only the
 * stale records of {@link #operation()}, so a step never sees another operation's
 * resource, and runs the returned {@link FinishStep} fenced, exactly like a request's.
 */
public interface ReconciliationStep {

	/**
	 * The operation whose stale records this step settles.
	 * @return the {@link IdempotentOperation#name()}
	 */
	String operation();

	/**
	 * Asks the provider what happened, outside every transaction. Must only look up,
	 * never act a second time.
	 * @param lease the lease the reconciler took over; its resource id names the resource
	 * @return {@link Settlement.Found} or {@link Settlement.GaveUp} with the completion
	 * to run fenced, or {@link Settlement.Unsettled} to release the lease for a later run
	 */
	Settlement settle(Lease lease);

}
