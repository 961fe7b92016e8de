package dev.payonce.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * Every client operation of a soak; safe for any number of threads. A client
 * {@linkplain #invoke invokes} an operation before it sends the request and completes it
 * with what it learned ({@link Call#ok}, {@link Call#fail}, {@link Call#info}). Each
 * completion gets an index that orders completions, so "the first final answer" of a key
 * is well defined; an invocation never completed (its client thread died) counts as
 * unknown, as a crashed process's operation does in Jepsen's histories.
 */
public final class History {

	private final ConcurrentLinkedQueue<Operation> operations = new ConcurrentLinkedQueue<>();

	private final ConcurrentLinkedQueue<Call> open = new ConcurrentLinkedQueue<>();

	private final AtomicLong completed = new AtomicLong();

	/**
	 * Invokes an operation: the client is about to send a request with {@code key}.
	 * @param key the idempotency key
	 * @return the call to complete once the answer (or its absence) is known
	 */
	public Call invoke(String key) {
		Call call = new Call(key);
		this.open.add(call);
		return call;
	}

	/**
	 * Records a final success.
	 * @param key the idempotency key
	 * @param status the HTTP status
	 * @param body the answer's body (only its digest is kept)
	 */
	public void ok(String key, int status, String body) {
		invoke(key).ok(status, body);
	}

	/**
	 * Records a definite refusal.
	 * @param key the idempotency key
	 * @param status the HTTP status
	 * @param body the answer's body (only its digest is kept)
	 */
	public void fail(String key, int status, String body) {
		invoke(key).fail(status, body);
	}

	/**
	 * Records an operation whose outcome the client cannot know.
	 * @param key the idempotency key
	 * @param status the HTTP status, or 0 when no answer came (timeout, reset)
	 */
	public void info(String key, int status) {
		invoke(key).info(status);
	}

	/**
	 * Records a completed operation whose answer is known only by its body's digest: a
	 * history read back from a file ({@link HistoryFiles}), in the order it completed.
	 * @param key the idempotency key
	 * @param type what the client learned
	 * @param status the HTTP status, or 0 when no answer came
	 * @param bodyDigest SHA-256 (hex) of the answer's body; {@code null} only for an
	 * unknown outcome
	 * @throws IllegalArgumentException if the operation is malformed ({@link Operation})
	 */
	public void add(String key, Operation.Type type, int status, @Nullable String bodyDigest) {
		// The index is taken and the operation queued in one step per thread; the
		// checker sorts by index, so the queue's order does not matter.
		this.operations.add(new Operation(this.completed.getAndIncrement(), key, type, status, bodyDigest));
	}

	/**
	 * The operations, in the order they completed, then every invocation never completed
	 * as unknown (status 0).
	 */
	public List<Operation> operations() {
		List<Operation> all = new ArrayList<>(
				this.operations.stream().sorted(Comparator.comparingLong(Operation::index)).toList());
		long next = this.completed.get();
		for (Call call : this.open) {
			if (!call.done.get()) {
				all.add(new Operation(next++, call.key, Operation.Type.INFO, 0, null));
			}
		}
		return all;
	}

	/** How many operations were invoked. */
	public int size() {
		return this.operations.size() + (int) this.open.stream().filter((call) -> !call.done.get()).count();
	}

	/** One invoked operation, completed at most once. */
	public final class Call {

		private final String key;

		private final AtomicBoolean done = new AtomicBoolean();

		private Call(String key) {
			this.key = key;
		}

		/**
		 * Completes with an HTTP answer of Payonce's payments and refunds, by its status
		 * ({@link Operation.Type#of}).
		 * @param status the HTTP status
		 * @param body the answer's body (only its digest is kept)
		 */
		public void answered(int status, String body) {
			switch (Operation.Type.of(status)) {
				case OK -> ok(status, body);
				case FAIL -> fail(status, body);
				case INFO -> info(status);
			}
		}

		/**
		 * Completes with a final success.
		 * @param status the HTTP status
		 * @param body the answer's body (only its digest is kept)
		 */
		public void ok(int status, String body) {
			complete(Operation.Type.OK, status, Operation.digest(body));
		}

		/**
		 * Completes with a definite refusal: nothing happened and nothing will under the
		 * key (a stored answer).
		 * @param status the HTTP status
		 * @param body the answer's body (only its digest is kept)
		 */
		public void fail(int status, String body) {
			complete(Operation.Type.FAIL, status, Operation.digest(body));
		}

		/**
		 * Completes without knowing the outcome.
		 * @param status the HTTP status, or 0 when no answer came (timeout, reset)
		 */
		public void info(int status) {
			complete(Operation.Type.INFO, status, null);
		}

		private void complete(Operation.Type type, int status, @Nullable String digest) {
			if (!this.done.compareAndSet(false, true)) {
				throw new IllegalStateException("an operation completes once: " + type + " " + status);
			}
			add(this.key, type, status, digest);
			History.this.open.remove(this);
		}

	}

}
