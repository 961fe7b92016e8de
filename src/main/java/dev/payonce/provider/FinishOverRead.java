package dev.payonce.provider;

import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.payonce.idempotency.FinishStep;
import dev.payonce.idempotency.RenderedFinish;
import dev.payonce.idempotency.ResourceWrite;
import dev.payonce.idempotency.StoredResponse;

/**
 * A fenced completion step that writes the resource its act step already read (a fresh
 * claim's own payment or refund, or a takeover's reload) without reading it again (issue
 * 13: two round trips, and Hibernate's load and dirty check, less per request).
 *
 * <p>
 * The transition moves the copy the act step read, in memory, and renders the response
 * ({@link #response()}). The engine stores it in one statement with the copy's writes
 * ({@link #writes}): one {@code UPDATE} of the copy's mutable columns, made only if the
 * row's {@code @Version} is still the one the copy was read with and moving it on by one
 * as a JPA write would ({@link VersionedWrites}), and for a refund the settlement of its
 * reservation. If the row changed since, or the copy was never stored, the engine runs
 * {@link #finish}: {@code reread}, the resource read again in the fenced transaction and
 * moved there as every completion did before, so the outcome never depends on which way
 * it was written and a change made meanwhile is never overwritten. The engine may ask for
 * the writes again if it retries after a transient conflict; the copy is moved and its
 * response rendered only once.
 *
 * <p>
 * Not thread-safe: one request's completion runs it.
 *
 * @param <E> the resource's entity type
 */
public final class FinishOverRead<E> implements RenderedFinish {

	/**
	 * The writes of a moved copy, the first conditioned on the row's version still being
	 * the one it was read with ({@link VersionedWrites}).
	 */
	@FunctionalInterface
	public interface Writes<E> {

		/**
		 * @param resource the copy, moved
		 * @param readVersion the version it was read with
		 * @return the writes, in order
		 */
		List<ResourceWrite> writes(E resource, long readVersion);

	}

	private final E read;

	private final UUID readId;

	private final @Nullable Long readVersion;

	private final Function<E, StoredResponse> transition;

	private final Writes<E> writes;

	private final FinishStep reread;

	private final Consumer<StoredResponse> written;

	private @Nullable StoredResponse response;

	/**
	 * @param read the resource as the act step read it; moved by {@code transition}
	 * @param readId its id
	 * @param readVersion its {@code @Version} as read; {@code null} if never stored
	 * @param transition moves a resource to its final status and renders the response
	 * @param writes the copy's writes
	 * @param reread the completion that reads the resource again, for a changed row
	 * @param written runs after the completion that wrote the copy committed (for the log
	 * line and the metric)
	 */
	public FinishOverRead(E read, UUID readId, @Nullable Long readVersion, Function<E, StoredResponse> transition,
			Writes<E> writes, FinishStep reread, Consumer<StoredResponse> written) {
		this.read = read;
		this.readId = readId;
		this.readVersion = readVersion;
		this.transition = transition;
		this.writes = writes;
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
	public List<ResourceWrite> writes(UUID resourceId) {
		Long version = this.readVersion;
		if (version == null || !this.readId.equals(resourceId)) {
			return List.of();
		}
		response();
		return this.writes.writes(this.read, version);
	}

	@Override
	public void written(StoredResponse response) {
		this.written.accept(response);
	}

	@Override
	public StoredResponse finish(UUID resourceId) {
		return this.reread.finish(resourceId);
	}

}
