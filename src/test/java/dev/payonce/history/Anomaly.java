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

		/** A key's record is still in progress at the end: a stuck record. */
		KEY_IN_PROGRESS,

		/**
		 * A capture's key has more than one provider capture (docs/design.md section 15).
		 */
		DOUBLE_CAPTURE,

		/** The provider captured more of a manual payment than it authorized. */
		OVER_CAPTURE,

		/** The provider captured a manual payment after it voided the authorization. */
		CAPTURE_AFTER_VOID,

		/**
		 * A payment still holds a capture reservation or a void at the end: a stuck hold,
		 * which refuses every later capture or void of it.
		 */
		HOLD_LEFT

	}

}
