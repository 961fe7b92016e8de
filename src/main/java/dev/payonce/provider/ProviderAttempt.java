package dev.payonce.provider;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import org.jspecify.annotations.Nullable;

/**
 * What Payonce knows of its calls to the provider for one resource (a payment, a refund):
 * the provider reference, the decline code, the provider idempotency key's generation and
 * when a call under that key was first answered from what the provider saved. The same
 * columns in every table of a resource the provider acts on, mapped once here
 * (docs/design.md section 5).
 *
 * <p>
 * The transitions are guarded: a provider reference once named is kept, a replay is
 * recorded once per generation, and the key moves to its next generation only when
 * nothing the provider named can be charged or refunded under the current one. The owning
 * resource checks its own status first. Not thread-safe: a resource is written by one
 * transaction at a time, guarded by its {@code @Version}.
 */
@Embeddable
public class ProviderAttempt {

	@Column(name = "provider_reference")
	private @Nullable String providerReference;

	@Column(name = "decline_code")
	private @Nullable String declineCode;

	/** The generation of the provider idempotency key, 1 or more. */
	@Column(name = "provider_key_generation")
	private int providerKeyGeneration;

	/**
	 * When a call under the current generation's key was first answered from what the
	 * provider saved under it; {@code null} until then (docs/design.md section 5).
	 */
	@Column(name = "provider_key_replayed_at")
	private @Nullable Instant providerKeyReplayedAt;

	/** The first attempt: generation 1, nothing learned yet. */
	public ProviderAttempt() {
		this.providerKeyGeneration = 1;
	}

	/**
	 * The provider idempotency key of the current generation: derived from the resource
	 * id, so that a call re-sent by a takeover or a retry is deduplicated by the provider
	 * (docs/design.md section 1).
	 * @param kind the resource's kind, {@code payment} or {@code refund}
	 * @param id the resource id
	 * @return {@code payonce-<kind>-<uuid>} for generation 1 (the key every resource made
	 * before generations existed was sent with), {@code payonce-<kind>-<uuid>-g<n>} for
	 * generation n
	 */
	public String providerIdempotencyKey(String kind, UUID id) {
		return providerIdempotencyKey(kind, id, this.providerKeyGeneration);
	}

	/**
	 * As {@link #providerIdempotencyKey(String, UUID)} for a given generation.
	 * @param kind the resource's kind
	 * @param id the resource id
	 * @param generation 1 or more
	 * @return the key
	 * @throws IllegalArgumentException if {@code generation} is below 1
	 */
	public static String providerIdempotencyKey(String kind, UUID id, int generation) {
		if (generation < 1) {
			throw new IllegalArgumentException("A provider key generation starts at 1, got " + generation);
		}
		String key = "payonce-" + kind + "-" + id;
		return (generation == 1) ? key : key + "-g" + generation;
	}

	/**
	 * The provider acted with a final outcome.
	 * @param providerReference the provider's id of what it did
	 * @param declineCode the provider's reason for a decline, {@code null} otherwise
	 */
	void settle(String providerReference, @Nullable String declineCode) {
		this.providerReference = providerReference;
		this.declineCode = declineCode;
	}

	/**
	 * Keeps the provider's id of what it did as soon as an answer names it, before a
	 * final outcome (Stripe: a PaymentIntent still {@code processing}), so that lookups
	 * read it by id and the key never moves to a new generation. The first id is kept.
	 * @return whether this call stored it
	 */
	boolean rememberProviderReference(String providerReference) {
		if (this.providerReference != null) {
			return false;
		}
		this.providerReference = providerReference;
		return true;
	}

	/**
	 * Records that a call under {@code generation} was answered from what the provider
	 * saved under the key (Stripe: {@code Idempotent-Replayed}); the first moment is
	 * kept, and a replay of an older generation records nothing.
	 * @return whether this call recorded it
	 */
	boolean recordReplayed(int generation, Instant now) {
		if (generation != this.providerKeyGeneration || this.providerKeyReplayedAt != null) {
			return false;
		}
		this.providerKeyReplayedAt = now;
		return true;
	}

	/**
	 * Moves the key to its next generation.
	 * @param from the generation a lookup proved empty
	 * @param replayRequired whether the owner moves only a generation whose key was
	 * answered from what the provider saved
	 * @return a description of why it may not, or {@code null} once it moved
	 */
	@Nullable String startNewGeneration(int from, boolean replayRequired) {
		if (this.providerReference != null) {
			return "the provider named it (" + this.providerReference + ")";
		}
		if (this.providerKeyGeneration != from || (replayRequired && this.providerKeyReplayedAt == null)) {
			return "it is at provider key generation " + this.providerKeyGeneration + " (replay recorded: "
					+ (this.providerKeyReplayedAt != null) + "), not a" + (replayRequired ? " replayed" : "")
					+ " generation " + from;
		}
		this.providerKeyGeneration++;
		this.providerKeyReplayedAt = null;
		return null;
	}

	/**
	 * The provider's id of what it did, once an answer named it.
	 * @return the provider reference, or {@code null}
	 */
	public @Nullable String providerReference() {
		return this.providerReference;
	}

	/**
	 * The provider's reason for a decline.
	 * @return the decline code, or {@code null} unless declined
	 */
	public @Nullable String declineCode() {
		return this.declineCode;
	}

	/**
	 * The generation of the provider idempotency key the next call is sent with.
	 * @return 1 or more
	 */
	public int providerKeyGeneration() {
		return this.providerKeyGeneration;
	}

	/**
	 * When a call under the current generation was first answered from what the provider
	 * saved under the key.
	 * @return that moment (UTC), or {@code null} if no such replay was seen
	 */
	public @Nullable Instant providerKeyReplayedAt() {
		return this.providerKeyReplayedAt;
	}

}
