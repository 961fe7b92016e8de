package dev.payonce.idempotency;

import java.time.Duration;

import dev.payonce.idempotency.IdempotentOperation.FinishStep;
import dev.payonce.idempotency.IdempotentOperation.ReleaseStep;

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

	/**
	 * How long after a record's lease ended this step's lookup that finds nothing proves
	 * the provider never acted: the reconciler leaves the operation's records alone at
	 * least this long, or {@code payonce.reconciliation.stale-after} if that is longer.
	 * Zero (the default) for a provider whose lookups read their own writes; for a
	 * provider whose lookup is eventually consistent (Stripe's Search), its settle time.
	 * @return the settle time, zero or more
	 */
	default Duration settleTime() {
		return Duration.ZERO;
	}

	/**
	 * What a {@link ReconciliationStep} learned about a stale record.
	 */
	sealed interface Settlement {

		/**
		 * The provider has the operation's outcome: complete the record with it.
		 *
		 * @param step the fenced completion, as a request would run it
		 */
		record Found(FinishStep step) implements Settlement {
		}

		/**
		 * The provider confirms it never acted, past the give-up window: complete the
		 * record with a stored failure, so the client learns the final answer.
		 *
		 * @param step the fenced completion
		 */
		record GaveUp(FinishStep step) implements Settlement {
		}

		/**
		 * Nothing final yet (not found within the window, or the lookup failed): release
		 * the lease for a client retry or a later run.
		 *
		 * @param reason a short internal reason, for logs only
		 */
		record Unsettled(String reason) implements Settlement {
		}

		/**
		 * Nothing final yet, and the next attempt must differ from the last one: release
		 * the lease and run {@code step} in the same fenced transaction (for payments on
		 * a provider that replays a saved failure under a provider idempotency key, a
		 * lookup proved there is no charge, so the payment moves to a new provider key
		 * generation).
		 *
		 * @param reason a short internal reason, for logs only
		 * @param step the change, committed only together with the release
		 */
		record Reattempt(String reason, ReleaseStep step) implements Settlement {
		}

	}

}
