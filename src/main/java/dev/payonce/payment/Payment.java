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

/**
 * A payment: created {@code PENDING} together with the idempotency claim, then moved once
 * to a final status. Never deleted (docs/design.md section 4). A {@code SUCCEEDED}
 * payment can be refunded; its refunded and reserved amounts are kept by
 * {@link RefundReservations}.
 *
 * <p>
 * Transitions are named for the fact and refuse to leave a final status. Concurrent
 * writers are caught by the {@code @Version} column.
 */
@Entity
@Table(name = "payments")
public class Payment implements Persistable<UUID> {

	@Id
	private UUID id;

	@Column(name = "client_id")
	private String clientId;

	@Column(name = "order_id")
	private String orderId;

	/** Minor units of {@link #currency}. */
	private long amount;

	/** ISO 4217 alphabetic code, upper case. */
	private String currency;

	@Column(name = "payment_method")
	private String paymentMethod;

	@Enumerated(EnumType.STRING)
	private PaymentStatus status;

	@Column(name = "provider_reference")
	private @Nullable String providerReference;

	@Column(name = "decline_code")
	private @Nullable String declineCode;

	/**
	 * Minor units refunded so far. Read-only here: written only by
	 * {@link RefundReservations}' conditional statements, so that no JPA write of a stale
	 * payment can undo a reservation.
	 */
	@Column(name = "refunded_amount", insertable = false, updatable = false)
	private long refundedAmount;

	@Column(name = "created_at")
	private Instant createdAt;

	@Column(name = "updated_at")
	private Instant updatedAt;

	/** The generation of the provider idempotency key; see {@link PaymentId}. */
	@Column(name = "provider_key_generation")
	private int providerKeyGeneration;

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
		this.providerKeyGeneration++;
		this.updatedAt = now;
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
		return new ChargeRequest(id(), id().providerIdempotencyKey(this.providerKeyGeneration), amount(),
				this.paymentMethod, this.orderId);
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
