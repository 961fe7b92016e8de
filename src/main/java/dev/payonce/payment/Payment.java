package dev.payonce.payment;

import java.time.Instant;
import java.util.Currency;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import org.jspecify.annotations.Nullable;
import org.springframework.data.domain.Persistable;

import dev.payonce.client.ClientId;
import dev.payonce.provider.ChargeRequest;
import dev.payonce.provider.Money;

/**
 * A payment: created {@code PENDING} together with the idempotency claim, then moved once
 * to a final status. Never deleted (docs/design.md section 4). A {@code SUCCEEDED}
 * payment can be refunded; its refunded and reserved amounts are kept by the refund
 * module's reservation statements.
 *
 * <p>
 * Transitions are named for the fact and refuse to leave a final status. Concurrent
 * writers are caught by the {@code @Version} column.
 *
 * <p>
 * This mapping is the one description of a {@code payments} row in Java (docs/design.md
 * section 9): JPA reads and writes it, and the idempotency engine builds its claim and
 * completion statements from it at start-up ({@link PaymentTable}). Columns that never
 * change after the insert are {@code updatable = false}, so neither writes them again.
 */
@Entity
@Table(name = "payments")
public class Payment implements Persistable<UUID> {

	@Id
	private UUID id;

	@Column(name = "client_id", updatable = false)
	private String clientId;

	@Column(name = "order_id", updatable = false)
	private String orderId;

	/** Minor units of {@link #currency}. */
	@Column(updatable = false)
	private long amount;

	/** ISO 4217 alphabetic code, upper case. */
	@Column(updatable = false)
	private String currency;

	@Column(name = "payment_method", updatable = false)
	private String paymentMethod;

	@Enumerated(EnumType.STRING)
	private PaymentStatus status;

	@Column(name = "provider_reference")
	private @Nullable String providerReference;

	@Column(name = "decline_code")
	private @Nullable String declineCode;

	/**
	 * Minor units refunded so far. Read-only here: written only by the refund module's
	 * conditional reservation statements, so that no JPA write of a stale payment can
	 * undo a reservation.
	 */
	@Column(name = "refunded_amount", insertable = false, updatable = false)
	private long refundedAmount;

	@Column(name = "created_at", updatable = false)
	private Instant createdAt;

	@Column(name = "updated_at")
	private Instant updatedAt;

	/** The generation of the provider idempotency key; see {@link PaymentId}. */
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

	/** For JPA only. */
	@SuppressWarnings("NullAway.Init")
	protected Payment() {
	}

	private Payment(PaymentId id, ClientId clientId, String orderId, Money amount, String paymentMethod, Instant now) {
		this.id = id.value();
		this.clientId = clientId.value();
		this.orderId = orderId;
		this.amount = amount.minorUnits();
		this.currency = amount.currency().getCurrencyCode();
		this.paymentMethod = paymentMethod;
		this.status = PaymentStatus.PENDING;
		this.providerKeyGeneration = 1;
		this.createdAt = now;
		this.updatedAt = now;
	}

	/**
	 * A new payment, {@code PENDING} until the provider answers.
	 * @param id the payment id, also the source of the provider idempotency key
	 * @param clientId the owning client
	 * @param orderId the client's order id
	 * @param amount the amount in minor units
	 * @param paymentMethod the provider payment method token
	 * @param now the creation time (UTC)
	 * @return the payment, not yet persisted
	 */
	public static Payment pending(PaymentId id, ClientId clientId, String orderId, Money amount, String paymentMethod,
			Instant now) {
		return new Payment(id, clientId, orderId, amount, paymentMethod, now);
	}

	/**
	 * The provider approved the charge.
	 * @param providerReference the provider's id of the charge
	 * @param now when Payonce learned it (UTC)
	 * @throws IllegalStateException unless the payment is {@code PENDING}
	 */
	public void markSucceeded(String providerReference, Instant now) {
		requirePending("mark succeeded");
		this.status = PaymentStatus.SUCCEEDED;
		this.providerReference = providerReference;
		this.updatedAt = now;
	}

	/**
	 * The provider declined the charge.
	 * @param providerReference the provider's id of the declined charge
	 * @param declineCode the provider's reason
	 * @param now when Payonce learned it (UTC)
	 * @throws IllegalStateException unless the payment is {@code PENDING}
	 */
	public void markDeclined(String providerReference, String declineCode, Instant now) {
		requirePending("mark declined");
		this.status = PaymentStatus.DECLINED;
		this.providerReference = providerReference;
		this.declineCode = declineCode;
		this.updatedAt = now;
	}

	/**
	 * Reconciliation gave up: the provider confirms it has no charge for this payment,
	 * and the give-up window has passed (docs/design.md section 4, step 5).
	 * @param now when Payonce gave up (UTC)
	 * @throws IllegalStateException unless the payment is {@code PENDING}
	 */
	public void markFailed(Instant now) {
		requirePending("mark failed");
		this.status = PaymentStatus.FAILED;
		this.updatedAt = now;
	}

	/**
	 * Moves the provider idempotency key to its next generation, so that the next charge
	 * attempt is not answered by what the provider saved for the current key (Stripe
	 * replays even a saved 500 for 24 hours). Only for a payment the provider has no
	 * charge for under any key, as proven by a lookup while no attempt can be in flight:
	 * a new key with a charge already made would charge twice.
	 * @param now when (UTC)
	 * @throws IllegalStateException unless the payment is {@code PENDING}
	 */
	public void startNewProviderKeyGeneration(Instant now) {
		requirePending("start a new provider key generation for");
		if (this.providerReference != null) {
			throw new IllegalStateException("Cannot start a new provider key generation for payment " + this.id
					+ ": the provider named its charge");
		}
		this.providerKeyGeneration++;
		this.providerKeyReplayedAt = null;
		this.updatedAt = now;
	}

	/**
	 * Records that a charge call under the current provider key generation was answered
	 * from what the provider saved under the key (Stripe: {@code Idempotent-Replayed}):
	 * from this moment no request under the key executes again, so a lookup's settle time
	 * can count from it (docs/design.md section 5). The first such moment is kept.
	 * @param generation the generation the replayed call was sent under; a replay of an
	 * older generation records nothing
	 * @param now when the replay was received (UTC)
	 * @return whether this call recorded it
	 * @throws IllegalStateException unless the payment is {@code PENDING}
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
	 * Keeps the provider's id of the charge as soon as an answer names it, before the
	 * charge has a final outcome (Stripe: a PaymentIntent still {@code processing}, or a
	 * 5xx whose error carries the PaymentIntent), so that lookups read it by id and the
	 * payment never moves to a new provider key generation. The first id named is kept.
	 * @param providerReference the provider's id of the charge
	 * @param now when Payonce learned it (UTC)
	 * @return whether this call stored it
	 * @throws IllegalStateException unless the payment is {@code PENDING}
	 */
	public boolean rememberProviderReference(String providerReference, Instant now) {
		requirePending("remember the provider reference of");
		if (this.providerReference != null) {
			return false;
		}
		this.providerReference = providerReference;
		this.updatedAt = now;
		return true;
	}

	private void requirePending(String transition) {
		if (this.status != PaymentStatus.PENDING) {
			throw new IllegalStateException(
					"Cannot " + transition + " payment " + this.id + ": it is " + this.status + ", not PENDING");
		}
	}

	/**
	 * The charge to send to the provider, the same on every attempt of the current
	 * provider key generation.
	 * @return the charge request with this payment's provider idempotency key
	 */
	public ChargeRequest chargeRequest() {
		return new ChargeRequest(this.id, id().providerIdempotencyKey(this.providerKeyGeneration), amount(),
				this.paymentMethod, this.orderId, this.providerReference, createdAt());
	}

	public PaymentId id() {
		return new PaymentId(this.id);
	}

	public ClientId clientId() {
		return new ClientId(this.clientId);
	}

	public String orderId() {
		return this.orderId;
	}

	public Money amount() {
		return new Money(this.amount, Currency.getInstance(this.currency));
	}

	public String paymentMethod() {
		return this.paymentMethod;
	}

	/**
	 * The generation of the provider idempotency key the next charge is sent with.
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

	public PaymentStatus status() {
		return this.status;
	}

	public @Nullable String providerReference() {
		return this.providerReference;
	}

	public @Nullable String declineCode() {
		return this.declineCode;
	}

	/**
	 * What succeeded refunds have returned so far, as read with this payment.
	 * @return minor units of the payment's currency, 0 to the amount
	 */
	public long refundedAmount() {
		return this.refundedAmount;
	}

	/**
	 * When the payment was created.
	 * @return the creation time, UTC, microsecond precision
	 */
	public Instant createdAt() {
		return this.createdAt;
	}

	/**
	 * When the payment last changed.
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
	 * @return the payment's id
	 */
	@Override
	public UUID getId() {
		return this.id;
	}

	/**
	 * Whether this payment was never stored: its {@code @Version} is set by the first
	 * {@code INSERT}. Lets Spring Data's {@code save} choose between {@code persist} and
	 * {@code merge} without probing the entity through a bean wrapper on every call.
	 * @return {@code true} until the payment is persisted
	 */
	@Override
	public boolean isNew() {
		return this.version == null;
	}

}
