package dev.payonce.refund;

import java.time.Instant;
import java.util.Currency;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import jakarta.persistence.Version;
import org.jspecify.annotations.Nullable;
import org.springframework.data.domain.Persistable;

import dev.payonce.client.ClientId;
import dev.payonce.payment.PaymentId;
import dev.payonce.provider.Money;
import dev.payonce.provider.RefundReason;
import dev.payonce.provider.RefundRequest;

/**
 * A refund of a payment: created {@code PENDING} in the claim transaction together with
 * its reservation on the payment, then moved once to a final status. Never deleted
 * (docs/design.md section 8).
 */
@Entity
@Table(name = "refunds")
public class Refund implements Persistable<UUID> {

	@Id
	private UUID id;

	@Column(name = "payment_id", updatable = false)
	private UUID paymentId;

	@Column(name = "client_id", updatable = false)
	private String clientId;

	/** Minor units of {@link #currency}. */
	@Column(updatable = false)
	private long amount;

	/** ISO 4217 alphabetic code, upper case: the payment's. */
	@Column(updatable = false)
	private String currency;

	@Column(updatable = false)
	private @Nullable String reason;

	@Enumerated(EnumType.STRING)
	private RefundStatus status;

	@Column(name = "provider_reference")
	private @Nullable String providerReference;

	@Column(name = "decline_code")
	private @Nullable String declineCode;

	@Column(name = "created_at", updatable = false)
	private Instant createdAt;

	@Column(name = "updated_at")
	private Instant updatedAt;

	/** The generation of the provider idempotency key; see {@link RefundId}. */
	@Column(name = "provider_key_generation")
	private int providerKeyGeneration;

	/**
	 * When a call under the current generation's key was first answered from what the
	 * provider saved under it; {@code null} until then (docs/design.md section 5).
	 */
	@Column(name = "provider_key_replayed_at")
	private @Nullable Instant providerKeyReplayedAt;

	@Version
	private @Nullable Long version;

	/**
	 * The payment's charge reference as the claim's reservation returned it, so that a
	 * fresh claim's act step need not read the payment; not a column.
	 */
	@Transient
	private @Nullable String chargeReference;

	/** For JPA only. */
	@SuppressWarnings("NullAway.Init")
	protected Refund() {
	}

	private Refund(RefundId id, PaymentId paymentId, ClientId clientId, Money amount, @Nullable RefundReason reason,
			Instant now) {
		this.id = id.value();
		this.paymentId = paymentId.value();
		this.clientId = clientId.value();
		this.amount = amount.minorUnits();
		this.currency = amount.currency().getCurrencyCode();
		this.reason = (reason != null) ? reason.wireName() : null;
		this.status = RefundStatus.PENDING;
		this.providerKeyGeneration = 1;
		this.createdAt = now;
		this.updatedAt = now;
	}

	/**
	 * A new refund, {@code PENDING} until the provider answers. Its amount must already
	 * be reserved on the payment.
	 * @param id the refund id, also the source of the provider idempotency key
	 * @param paymentId the refunded payment
	 * @param clientId the owning client, the payment's
	 * @param amount the reserved amount, in the payment's currency
	 * @param reason the client's reason, if any
	 * @param now the creation time (UTC)
	 * @return the refund, not yet persisted
	 */
	public static Refund pending(RefundId id, PaymentId paymentId, ClientId clientId, Money amount,
			@Nullable RefundReason reason, Instant now) {
		return new Refund(id, paymentId, clientId, amount, reason, now);
	}

	/**
	 * A new refund whose amount is yet to be reserved on the payment: the claim's
	 * reservation sets its amount (all that remains, or what was asked) and currency (the
	 * payment's), and the payment's charge reference, from what it returned
	 * ({@link RefundTable}; docs/design.md section 8). {@link #amount()} is not known
	 * until then.
	 * @param id the refund id, also the source of the provider idempotency key
	 * @param paymentId the refunded payment
	 * @param clientId the owning client, the payment's
	 * @param reason the client's reason, if any
	 * @param now the creation time (UTC)
	 * @return the refund, not yet persisted
	 */
	static Refund reserving(RefundId id, PaymentId paymentId, ClientId clientId, @Nullable RefundReason reason,
			Instant now) {
		Refund refund = new Refund();
		refund.id = id.value();
		refund.paymentId = paymentId.value();
		refund.clientId = clientId.value();
		refund.reason = (reason != null) ? reason.wireName() : null;
		refund.status = RefundStatus.PENDING;
		refund.providerKeyGeneration = 1;
		refund.createdAt = now;
		refund.updatedAt = now;
		return refund;
	}

	/**
	 * The provider reference of the refunded payment's charge, as the claim's reservation
	 * returned it; {@code null} for a refund read from the database.
	 * @return the charge reference, or {@code null}
	 */
	@Nullable String chargeReference() {
		return this.chargeReference;
	}

	/**
	 * The provider refunded.
	 * @param providerReference the provider's id of the refund
	 * @param now when Payonce learned it (UTC)
	 * @throws IllegalStateException unless the refund is {@code PENDING}
	 */
	public void markSucceeded(String providerReference, Instant now) {
		requirePending("mark succeeded");
		this.status = RefundStatus.SUCCEEDED;
		this.providerReference = providerReference;
		this.updatedAt = now;
	}

	/**
	 * The provider declined the refund.
	 * @param providerReference the provider's id of the declined refund
	 * @param declineCode the provider's reason
	 * @param now when Payonce learned it (UTC)
	 * @throws IllegalStateException unless the refund is {@code PENDING}
	 */
	public void markDeclined(String providerReference, String declineCode, Instant now) {
		requirePending("mark declined");
		this.status = RefundStatus.DECLINED;
		this.providerReference = providerReference;
		this.declineCode = declineCode;
		this.updatedAt = now;
	}

	/**
	 * Reconciliation gave up: the provider confirms it has no refund under this refund's
	 * provider idempotency key, past the give-up window.
	 * @param now when Payonce gave up (UTC)
	 * @throws IllegalStateException unless the refund is {@code PENDING}
	 */
	public void markFailed(Instant now) {
		requirePending("mark failed");
		this.status = RefundStatus.FAILED;
		this.updatedAt = now;
	}

	/**
	 * Records that a refund call under the current provider key generation was answered
	 * from what the provider saved under the key (Stripe: {@code Idempotent-Replayed}):
	 * the request under the key that executed had ended, and none executes after it
	 * (docs/design.md section 8). The first such moment is kept.
	 * @param generation the generation the replayed call was sent under; a replay of an
	 * older generation records nothing
	 * @param now when the replay was received (UTC)
	 * @return whether this call recorded it
	 * @throws IllegalStateException unless the refund is {@code PENDING}
	 */
	public boolean recordProviderKeyReplayed(int generation, Instant now) {
		requirePending("record a replayed provider key for");
		if (generation != this.providerKeyGeneration || this.providerKeyReplayedAt != null) {
			return false;
		}
		this.providerKeyReplayedAt = now;
		this.updatedAt = now;
		return true;
	}

	/**
	 * Moves the provider idempotency key to its next generation, so that the next refund
	 * attempt is not answered by what the provider saved for the current key. Only for a
	 * refund the provider has none of under any key, as proven by a lookup after the
	 * current key was answered from what the provider saved, while no attempt can be in
	 * flight: a new key with a refund already made would refund twice.
	 * @param from the generation the proof was made for
	 * @param now when (UTC)
	 * @throws IllegalStateException unless the refund is {@code PENDING}, at generation
	 * {@code from}, with its key's replay recorded
	 */
	public void startNewProviderKeyGeneration(int from, Instant now) {
		requirePending("start a new provider key generation for");
		if (this.providerKeyGeneration != from || this.providerKeyReplayedAt == null) {
			throw new IllegalStateException("Refund " + this.id + " is at provider key generation "
					+ this.providerKeyGeneration + " (replay recorded: " + (this.providerKeyReplayedAt != null)
					+ "), not a replayed generation " + from);
		}
		this.providerKeyGeneration++;
		this.providerKeyReplayedAt = null;
		this.updatedAt = now;
	}

	/**
	 * The generation of the provider idempotency key the next refund call is sent with.
	 * @return 1 or more
	 */
	public int providerKeyGeneration() {
		return this.providerKeyGeneration;
	}

	/**
	 * When a call under the current provider key generation was first answered from what
	 * the provider saved under the key ({@link #recordProviderKeyReplayed}).
	 * @return that moment (UTC), or {@code null} if no such replay was seen
	 */
	public @Nullable Instant providerKeyReplayedAt() {
		return this.providerKeyReplayedAt;
	}

	private void requirePending(String transition) {
		if (this.status != RefundStatus.PENDING) {
			throw new IllegalStateException(
					"Cannot " + transition + " refund " + this.id + ": it is " + this.status + ", not PENDING");
		}
	}

	/**
	 * The refund to send to the provider, the same on every attempt of the current
	 * provider key generation.
	 * @param chargeReference the provider's id of the refunded charge
	 * @return the request with this refund's provider idempotency key
	 */
	public RefundRequest refundRequest(String chargeReference) {
		return new RefundRequest(this.id, id().providerIdempotencyKey(this.providerKeyGeneration), chargeReference,
				amount(), reason());
	}

	public RefundId id() {
		return new RefundId(this.id);
	}

	public PaymentId paymentId() {
		return new PaymentId(this.paymentId);
	}

	public ClientId clientId() {
		return new ClientId(this.clientId);
	}

	public Money amount() {
		return new Money(this.amount, Currency.getInstance(this.currency));
	}

	public @Nullable RefundReason reason() {
		return (this.reason != null) ? RefundReason.fromWireName(this.reason).orElse(null) : null;
	}

	public RefundStatus status() {
		return this.status;
	}

	public @Nullable String providerReference() {
		return this.providerReference;
	}

	public @Nullable String declineCode() {
		return this.declineCode;
	}

	/**
	 * When the refund was created.
	 * @return the creation time, UTC, microsecond precision
	 */
	public Instant createdAt() {
		return this.createdAt;
	}

	/**
	 * When the refund last changed.
	 * @return UTC, microsecond precision
	 */
	Instant updatedAt() {
		return this.updatedAt;
	}

	/**
	 * The {@code @Version} this copy was read with or last written with.
	 * @return the version; {@code null} until the first {@code INSERT}
	 */
	@Nullable Long version() {
		return this.version;
	}

	/**
	 * The id, for Spring Data.
	 * @return the refund's id
	 */
	@Override
	public UUID getId() {
		return this.id;
	}

	/**
	 * Whether this refund was never stored: its {@code @Version} is set by the first
	 * {@code INSERT}. Lets Spring Data's {@code save} choose between {@code persist} and
	 * {@code merge} without probing the entity through a bean wrapper on every call.
	 * @return {@code true} until the refund is persisted
	 */
	@Override
	public boolean isNew() {
		return this.version == null;
	}

}
