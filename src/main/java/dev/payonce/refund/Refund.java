package dev.payonce.refund;

import java.time.Instant;
import java.util.Currency;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import jakarta.persistence.Version;
import org.jspecify.annotations.Nullable;

import dev.payonce.client.ClientId;
import dev.payonce.payment.PaymentId;
import dev.payonce.provider.Money;
import dev.payonce.provider.ProviderAttempt;
import dev.payonce.provider.ProviderResource;
import dev.payonce.provider.RefundReason;
import dev.payonce.provider.RefundRequest;

/**
 * A refund of a payment: created {@code PENDING} in the claim transaction together with
 * its reservation on the payment, then moved once to a final status. Never deleted
 * (docs/design.md section 8).
 */
@Entity
@Table(name = "refunds")
public class Refund extends ProviderResource {

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

	@Column(name = "created_at", updatable = false)
	private Instant createdAt;

	@Column(name = "updated_at")
	private Instant updatedAt;

	/** The provider reference, decline code and provider key generation. */
	@Embedded
	private ProviderAttempt attempt = new ProviderAttempt();

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

	@Override
	protected String kind() {
		return "refund";
	}

	@Override
	protected ProviderAttempt attempt() {
		return this.attempt;
	}

	@Override
	public boolean pending() {
		return this.status == RefundStatus.PENDING;
	}

	@Override
	protected RefundStatus currentStatus() {
		return this.status;
	}

	@Override
	protected void moveTo(Outcome outcome, Instant now) {
		this.status = RefundStatus.valueOf(outcome.name());
		this.updatedAt = now;
	}

	@Override
	protected void touch(Instant now) {
		this.updatedAt = now;
	}

	/**
	 * A refund moves to a new provider key generation only after its key was answered
	 * from what the provider saved: the request that executed under the key had ended,
	 * none executes after it, and a refund lookup reads the provider's own writes
	 * (docs/design.md section 8).
	 */
	@Override
	protected boolean newGenerationNeedsReplay() {
		return true;
	}

	/**
	 * The refund to send to the provider, the same on every attempt of the current
	 * provider key generation.
	 * @param chargeReference the provider's id of the refunded charge
	 * @return the request with this refund's provider idempotency key
	 */
	public RefundRequest refundRequest(String chargeReference) {
		return new RefundRequest(this.id, providerIdempotencyKey(), chargeReference, amount(), reason());
	}

	public RefundId id() {
		return new RefundId(this.id);
	}

	@Override
	public UUID resourceId() {
		return this.id;
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

	/**
	 * When the refund was created.
	 * @return the creation time, UTC, microsecond precision
	 */
	@Override
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
	@Override
	protected @Nullable Long version() {
		return this.version;
	}

}
