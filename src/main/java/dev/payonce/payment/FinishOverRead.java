package dev.payonce.payment;

import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.payonce.idempotency.FinishStep;
import dev.payonce.idempotency.RenderedFinish;
import dev.payonce.idempotency.StoredResponse;

/**
 * A fenced completion step that writes the resource its act step already read (a fresh
 * claim's own payment or refund, or a takeover's reload) without reading it again (issue
 * 13: two round trips, and Hibernate's load and dirty check, less per request).
 *
 * <p>
 * The transition moves the copy the act step read, in memory, and renders the response
 * ({@link #response()}), which the engine stores with the record's fenced {@code UPDATE}.
 * Then, in the same completion transaction, one {@code UPDATE} writes the copy's mutable
 * columns only if the row's {@code @Version} is still the one the copy was read with,
 * moving it on by one as a JPA write would ({@link #write}). If the row changed since, or
 * the copy was never stored, the engine runs {@link #finish}: {@code reread}, the
 * resource read again in the transaction and moved there as every completion did before,
 * so the outcome never depends on which way it was written and a change made meanwhile is
 * never overwritten. The engine runs the steps again if it retries the transaction after
 * a transient conflict; the copy is moved and its response rendered only once.
 *
 * <p>
 * Not thread-safe: one request's completion runs it.
 *
 * @param <E> the resource's entity type
 */
final class FinishOverRead<E> implements RenderedFinish {

	/** Writes a moved copy if the row's version is still the one it was read with. */
	@FunctionalInterface
	interface VersionedWrite<E> {

		/**
		 * @return {@code true} if written; {@code false} if the row changed since (or is
		 * gone), and nothing was written
		 */
		boolean writeIfUnchanged(E resource, long readVersion);

	}

	private final E read;

	private final UUID readId;

	private final @Nullable Long readVersion;

	private final Function<E, StoredResponse> transition;

	private final VersionedWrite<E> write;

	private final FinishStep reread;

	private final Consumer<StoredResponse> written;

	private @Nullable StoredResponse response;

	/**
	 * @param read the resource as the act step read it; moved by {@code transition}
	 * @param readId its id
	 * @param readVersion its {@code @Version} as read; {@code null} if never stored
	 * @param transition moves a resource to its final status and renders the response
	 * @param write the conditional {@code UPDATE}
	 * @param reread the completion that reads the resource again, for a changed row
	 * @param written runs after a write of the copy (for the after-commit log line)
	 */
	FinishOverRead(E read, UUID readId, @Nullable Long readVersion, Function<E, StoredResponse> transition,
			VersionedWrite<E> write, FinishStep reread, Consumer<StoredResponse> written) {
		this.read = read;
		this.readId = readId;
		this.readVersion = readVersion;
		this.transition = transition;
		this.write = write;
		this.reread = reread;
		this.written = written;
	}

	@Override
	public StoredResponse response() {
		StoredResponse rendered = this.response;
		if (rendered == null) {
			rendered = this.transition.apply(this.read);
			this.response = rendered;
		}
		return rendered;
	}

	@Override
	public boolean write(UUID resourceId) {
		Long version = this.readVersion;
		if (version == null || !this.readId.equals(resourceId)) {
			return false;
		}
		StoredResponse rendered = response();
		if (!this.write.writeIfUnchanged(this.read, version)) {
			return false;
		}
		this.written.accept(rendered);
		return true;
	}

	@Override
	public StoredResponse finish(UUID resourceId) {
		return this.reread.finish(resourceId);
	}

}
