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

	/**
	 * Nothing final yet, and the next attempt must differ from the last one: release the
	 * lease and run {@code step} in the same fenced transaction (for payments on a
	 * provider that replays a saved failure under a provider idempotency key, a lookup
	 * proved there is no charge, so the payment moves to a new provider key generation).
	 *
	 * @param reason a short internal reason, for logs only
	 * @param step the change, committed only together with the release
	 */
	record Reattempt(String reason, ReleaseStep step) implements Settlement {
	}

}
