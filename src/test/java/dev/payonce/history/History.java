package dev.payonce.history;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * Every client operation of a soak, recorded as it completes; safe for any number of
 * threads. An operation is recorded when its answer (or its failure) is known, with an
 * index that orders completions, so "the first final answer" of a key is well defined.
 */
public final class History {

	private final ConcurrentLinkedQueue<Operation> operations = new ConcurrentLinkedQueue<>();

	private final AtomicLong completed = new AtomicLong();

	/**
	 * Records a final success.
	 * @param key the idempotency key
	 * @param status the HTTP status
	 * @param body the answer's body (only its digest is kept)
	 */
	public void ok(String key, int status, String body) {
		add(key, Operation.Type.OK, status, Operation.digest(body));
	}

	/**
	 * Records a definite refusal.
	 * @param key the idempotency key
	 * @param status the HTTP status
	 * @param body the answer's body (only its digest is kept)
	 */
	public void fail(String key, int status, String body) {
		add(key, Operation.Type.FAIL, status, Operation.digest(body));
	}

	/**
	 * Records an operation whose outcome the client cannot know.
	 * @param key the idempotency key
	 * @param status the HTTP status, or 0 when no answer came (timeout, reset)
	 */
	public void info(String key, int status) {
		add(key, Operation.Type.INFO, status, null);
	}

	private void add(String key, Operation.Type type, int status, @Nullable String digest) {
		// The index is taken and the operation queued in one step per thread; the
		// checker sorts by index, so the queue's order does not matter.
		this.operations.add(new Operation(this.completed.getAndIncrement(), key, type, status, digest));
	}

	/** The operations, in the order they completed. */
	public List<Operation> operations() {
		return this.operations.stream().sorted(Comparator.comparingLong(Operation::index)).toList();
	}

	/** How many operations were recorded. */
	public int size() {
		return this.operations.size();
	}

}
