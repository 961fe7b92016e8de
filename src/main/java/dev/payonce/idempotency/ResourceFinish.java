package dev.payonce.idempotency;

import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.payonce.idempotency.IdempotentOperation.FinishStep;
import dev.payonce.idempotency.ResourceTable.Transition;

/**
 * The completion of a declared resource ({@link ResourceTable#finish}): the operation's
 * one {@link Transition}, written by the engine. With the copy the act step read, the
 * engine completes in one statement over that copy ({@link PreparedResource#complete});
 * otherwise, and when that copy's row changed since, {@link #finish(UUID)} runs inside
 * the fenced completion transaction: it reads the resource {@code FOR UPDATE}, applies
 * the same transition and writes it with the same versioned write.
 *
 * <p>
 * Not thread-safe: one request's completion runs it.
 *
 * @param <R> the resource
 */
final class ResourceFinish<R> implements FinishStep {

	private final PreparedResource<R> resource;

	private final @Nullable R read;

	private final Transition<R> transition;

	private @Nullable StoredResponse response;

	ResourceFinish(PreparedResource<R> resource, @Nullable R read, Transition<R> transition) {
		this.resource = resource;
		this.read = read;
		this.transition = transition;
	}

	PreparedResource<R> resource() {
		return this.resource;
	}

	/** The act step's copy, if it is the lease's resource and was stored. */
	@Nullable R read(UUID resourceId) {
		R copy = this.read;
		return (copy != null && resourceId.equals(this.resource.id(copy))) ? copy : null;
	}

	/** The act step's copy moved, and its response, rendered once. */
	StoredResponse response(R copy) {
		StoredResponse rendered = this.response;
		if (rendered == null) {
			rendered = this.transition.apply(copy);
			this.response = rendered;
		}
		return rendered;
	}

	/** After the completion over the act step's copy committed. */
	void written(R copy, StoredResponse stored) {
		this.transition.completed(copy, stored);
	}

	/** The slow way, inside the fenced completion transaction. */
	@Override
	public StoredResponse finish(UUID resourceId) {
		R current = this.resource.loadForUpdate(resourceId);
		StoredResponse stored = this.transition.apply(current);
		this.resource.write(current);
		if (TransactionSynchronizationManager.isSynchronizationActive()) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCommit() {
					ResourceFinish.this.transition.completed(current, stored);
				}
			});
		}
		return stored;
	}

}
