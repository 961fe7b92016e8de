package dev.payonce.history;

/**
 * Something a history and the end state contradict: a client was told what is not so, or
 * money moved that should not have.
 *
 * @param kind which rule was broken
 * @param key the idempotency key
 * @param detail what was found (counts and statuses, never a body)
 */
public record Anomaly(Kind kind, String key, String detail) {

	/** The rules {@link HistoryChecker} checks, one per kind. */
	public enum Kind {

		/** A key answered with a success has not exactly one charge. */
		SUCCESS_WITHOUT_ONE_CHARGE,

		/** A key answered with a definite refusal was charged. */
		CHARGE_AFTER_DEFINITE_FAILURE,

		/** A final answer differs (status or body) from the key's first final answer. */
		REPLAY_DIFFERS,

		/** A key whose every answer was unknown was charged more than once. */
		UNKNOWN_CHARGED_TWICE,

		/** A payment was refunded more than it was paid. */
		REFUND_ABOVE_PAID,

		/** A key's record is still in progress at the end. */
		KEY_IN_PROGRESS

	}

}
