package dev.payonce.idempotency;

/**
 * What a {@link ReconciliationStep} learned about a stale record.
 */
public sealed interface Settlement {

	/**
	 * The provider has the operation's outcome: complete the record with it.
	 *
	 * @param step the fenced completion, as a request would run it
	 */
	record Found(FinishStep step) implements Settlement {
	}

	/**
	 * The provider confirms it never acted, past the give-up window: complete the record
	 * with a stored failure, so the client learns the final answer.
	 *
	 * @param step the fenced completion
	 */
	record GaveUp(FinishStep step) implements Settlement {
	}

	/**
	 * Nothing final yet (not found within the window, or the lookup failed): release the
	 * lease for a client retry or a later run.
	 *
	 * @param reason a short internal reason, for logs only
	 */
	record Unsettled(String reason) implements Settlement {
	}

}
