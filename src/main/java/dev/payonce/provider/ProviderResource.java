package dev.payonce.provider;

import java.time.Instant;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.data.domain.Persistable;

/**
 * A resource the provider acts on once (a payment, a refund): created {@code PENDING}
 * with its idempotency claim, then moved once to a final outcome. The transitions every
 * such resource shares are written here, once; a resource keeps its own status type and
 * columns, and maps the provider-facing ones in one {@link ProviderAttempt}
 * (docs/design.md section 5).
 *
 * <p>
 * Every transition refuses to leave a final status and names the current one. A subclass
 * is a JPA entity; this class holds no state of its own, so it adds no column. Not
 * thread-safe: one transaction writes a resource at a time, guarded by its
 * {@code @Version}.
 */
public abstract class ProviderResource implements Persistable<UUID> {

	/** The final outcomes a resource moves to, once. */
	public enum Outcome {

		/** The provider acted: charged, refunded. */
		SUCCEEDED,

		/** The provider refused to act. */
		DECLINED,

		/**
		 * Reconciliation gave up: the provider has no record of it, past the give-up
		 * window (docs/design.md section 4, step 5).
		 */
		FAILED

	}

	/**
	 * The resource's id, the one the engine chose when the key was claimed.
	 * @return the id
	 */
	public abstract UUID resourceId();

	/**
	 * The {@code @Version} this copy was read with or last written with.
	 * @return the version; {@code null} until the first {@code INSERT}
	 */
	protected abstract @Nullable Long version();

	/**
	 * The id, for Spring Data.
	 * @return {@link #resourceId()}
	 */
	@Override
	public UUID getId() {
		return resourceId();
	}

	/**
	 * Whether this resource was never stored: its {@code @Version} is set by the first
	 * {@code INSERT}. Lets Spring Data's {@code save} choose between {@code persist} and
	 * {@code merge} without probing the entity through a bean wrapper on every call.
	 * @return {@code true} until the resource is persisted
	 */
	@Override
	public boolean isNew() {
		return version() == null;
	}

	/**
	 * The resource's kind, as it appears in provider idempotency keys and messages.
	 * @return {@code payment} or {@code refund}
	 */
	protected abstract String kind();

	/**
	 * What Payonce knows of its calls to the provider for this resource.
	 * @return the resource's attempt columns
	 */
	protected abstract ProviderAttempt attempt();

	/**
	 * When the resource was created.
	 * @return UTC, microsecond precision
	 */
	public abstract Instant createdAt();

	/**
	 * Whether the resource has no final outcome yet.
	 * @return {@code true} while {@code PENDING}
	 */
	public abstract boolean pending();

	/**
	 * The resource's status, as its own type names it.
	 * @return the status
	 */
	protected abstract Enum<?> currentStatus();

	/**
	 * Moves the resource's status to {@code outcome} and stamps the change; called only
	 * while {@link #pending()}.
	 */
	protected abstract void moveTo(Outcome outcome, Instant now);

	/** Stamps a change that leaves the status as it is. */
	protected abstract void touch(Instant now);

	/**
	 * The provider acted.
	 * @param providerReference the provider's id of what it did
	 * @param now when Payonce learned it (UTC)
	 * @throws IllegalStateException unless the resource is {@code PENDING}
	 */
	public void markSucceeded(String providerReference, Instant now) {
		requirePending("mark succeeded");
		moveTo(Outcome.SUCCEEDED, now);
		attempt().settle(providerReference, null);
	}

	/**
	 * The provider said when the authorization it approved lapses
	 * ({@link GatewayResult.Approved#holdExpiresAt()}); a resource that holds no
	 * authorization ignores it. Called after {@link #markSucceeded}, in the same
	 * completion.
	 * @param expiresAt the provider's end of the hold (UTC)
	 */
	protected void holdExpiresAt(Instant expiresAt) {
	}

	/**
	 * The provider declined.
	 * @param providerReference the provider's id of the declined attempt
	 * @param declineCode the provider's reason
	 * @param now when Payonce learned it (UTC)
	 * @throws IllegalStateException unless the resource is {@code PENDING}
	 */
	public void markDeclined(String providerReference, String declineCode, Instant now) {
		requirePending("mark declined");
		moveTo(Outcome.DECLINED, now);
		attempt().settle(providerReference, declineCode);
	}

	/**
	 * Reconciliation gave up: the provider confirms it has none of this resource, past
	 * the give-up window (docs/design.md section 4, step 5).
	 * @param now when Payonce gave up (UTC)
	 * @throws IllegalStateException unless the resource is {@code PENDING}
	 */
	public void markFailed(Instant now) {
		requirePending("mark failed");
		moveTo(Outcome.FAILED, now);
	}

	/**
	 * Records that a call under the current provider key generation was answered from
	 * what the provider saved under the key (Stripe: {@code Idempotent-Replayed}): from
	 * this moment no request under the key executes again, so a lookup's settle time can
	 * count from it (docs/design.md section 5). The first such moment is kept.
	 * @param generation the generation the replayed call was sent under; a replay of an
	 * older generation records nothing
	 * @param now when the replay was received (UTC)
	 * @return whether this call recorded it
	 * @throws IllegalStateException unless the resource is {@code PENDING}
	 */
	public boolean recordProviderKeyReplayed(int generation, Instant now) {
		requirePending("record a replayed provider key for");
		if (!attempt().recordReplayed(generation, now)) {
			return false;
		}
		touch(now);
		return true;
	}

	/**
	 * Keeps the provider's id of what it did as soon as an answer names it, before a
	 * final outcome (Stripe: a PaymentIntent still {@code processing}, or a 5xx whose
	 * error carries it), so that lookups read it by id and the resource never moves to a
	 * new provider key generation. The first id named is kept.
	 * @param providerReference the provider's id
	 * @param now when Payonce learned it (UTC)
	 * @return whether this call stored it
	 * @throws IllegalStateException unless the resource is {@code PENDING}
	 */
	public boolean rememberProviderReference(String providerReference, Instant now) {
		requirePending("remember the provider reference of");
		if (!attempt().rememberProviderReference(providerReference)) {
			return false;
		}
		touch(now);
		return true;
	}

	/**
	 * Moves the provider idempotency key to its next generation, so that the next attempt
	 * is not answered by what the provider saved for the current key (Stripe replays even
	 * a saved 500 for 24 hours). Only for a resource the provider has none of under any
	 * key, as proven by a lookup while no attempt can be in flight: a new key after the
	 * provider acted would act twice (docs/design.md section 5).
	 * @param from the generation the proof was made for
	 * @param now when (UTC)
	 * @throws IllegalStateException unless the resource is {@code PENDING}, at generation
	 * {@code from}, the provider named nothing of it, and (where the resource requires
	 * it, {@link #newGenerationNeedsReplay()}) the key's replay is recorded
	 */
	public void startNewProviderKeyGeneration(int from, Instant now) {
		requirePending("start a new provider key generation for");
		String refusal = attempt().startNewGeneration(from, newGenerationNeedsReplay());
		if (refusal != null) {
			throw new IllegalStateException(
					"Cannot start a new provider key generation for " + kind() + " " + resourceId() + ": " + refusal);
		}
		touch(now);
	}

	/**
	 * Whether a new provider key generation needs the current key's replay recorded
	 * first; {@code false} by default, where a reconciler's lookup after the settle time
	 * is proof enough.
	 * @return whether a replay is required
	 */
	protected boolean newGenerationNeedsReplay() {
		return false;
	}

	/**
	 * The provider idempotency key the next call is sent with
	 * ({@link ProviderAttempt#providerIdempotencyKey(String, UUID)}).
	 * @return the key of the current generation
	 */
	public String providerIdempotencyKey() {
		return attempt().providerIdempotencyKey(kind(), resourceId());
	}

	/**
	 * The provider's id of what it did, once an answer named it.
	 * @return the provider reference, or {@code null}
	 */
	public @Nullable String providerReference() {
		return attempt().providerReference();
	}

	/**
	 * The provider's reason for a decline.
	 * @return the decline code, or {@code null} unless declined
	 */
	public @Nullable String declineCode() {
		return attempt().declineCode();
	}

	/**
	 * The generation of the provider idempotency key the next call is sent with.
	 * @return 1 or more
	 */
	public int providerKeyGeneration() {
		return attempt().providerKeyGeneration();
	}

	/**
	 * When a call under the current provider key generation was first answered from what
	 * the provider saved under the key ({@link #recordProviderKeyReplayed}).
	 * @return that moment (UTC), or {@code null} if no such replay was seen
	 */
	public @Nullable Instant providerKeyReplayedAt() {
		return attempt().providerKeyReplayedAt();
	}

	private void requirePending(String transition) {
		if (!pending()) {
			throw new IllegalStateException("Cannot " + transition + " " + kind() + " " + resourceId() + ": it is "
					+ currentStatus() + ", not PENDING");
		}
	}

}
