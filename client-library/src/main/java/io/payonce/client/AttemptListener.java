package io.payonce.client;

/**
 * Told about every attempt of every call when it ends, on the calling thread, before the
 * wait for the next one: for metrics and logs (how many retries, for which answers). It
 * must return quickly and not throw; an exception it throws is ignored.
 */
@FunctionalInterface
public interface AttemptListener {

	/** A listener that does nothing. */
	AttemptListener NONE = (attempt) -> {
	};

	/**
	 * An attempt ended.
	 * @param attempt what happened
	 */
	void attempted(Attempt attempt);

}
