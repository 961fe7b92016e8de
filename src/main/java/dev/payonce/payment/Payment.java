package dev.payonce.payment;

import java.time.Duration;
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
import jakarta.persistence.Version;
import org.jspecify.annotations.Nullable;

import dev.payonce.client.ClientId;
import dev.payonce.provider.CaptureMethod;
import dev.payonce.provider.ChargeRequest;
import dev.payonce.provider.Money;
import dev.payonce.provider.ProviderAttempt;
import dev.payonce.provider.ProviderResource;

/**
 * A payment: created {@code PENDING} together with the idempotency claim, then moved once
 * to a final status. Never deleted (docs/design.md section 4). A {@code SUCCEEDED}
 * payment can be refunded; its refunded and reserved amounts are kept by the refund
 * module's reservation statements. A payment made with {@link CaptureMethod#MANUAL} moves
 * to {@code AUTHORIZED} instead of {@code SUCCEEDED}: the provider holds the money until
 * the capture module's captures take it or its void releases it (docs/design.md section
 * 15); those write their columns of this row with their own statements.
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
public class Payment extends ProviderResource {

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

	/**
	 * Minor units refunded so far. Read-only here: written only by the refund module's
	 * conditional reservation statements, so that no JPA write of a stale payment can
	 * undo a reservation.
	 */
	@Column(name = "refunded_amount", insertable = false, updatable = false)
	private long refundedAmount;

	/** {@code automatic} or {@code manual} ({@link CaptureMethod#wireName()}). */
	@Column(name = "capture_method", updatable = false)
	private String captureMethod;

	/**
	 * When a manual payment's authorization lapses; {@code null} for an automatic one.
	 * Set at creation from the provider's window and brought forward once if the
	 * provider's approval names an earlier end ({@link #holdExpiresAt}).
	 */
	@Column(name = "authorization_expires_at")
	private @Nullable Instant authorizationExpiresAt;

	/**
	 * Minor units captures took, and reserved by captures in flight. Read-only here:
	 * written only by the capture module's reservation statements (docs/design.md section
	 * 15).
	 */
	@Column(name = "captured_amount", insertable = false, updatable = false)
	private long capturedAmount;

	@Column(name = "captures_in_flight", insertable = false, updatable = false)
	private long capturesInFlight;

	@Column(name = "created_at", updatable = false)
	private Instant createdAt;

	@Column(name = "updated_at")
	private Instant updatedAt;

	/** The provider reference, decline code and provider key generation. */
	@Embedded
	private ProviderAttempt attempt = new ProviderAttempt();

	@Version
	private @Nullable Long version;

	/** For JPA only. */
	@SuppressWarnings("NullAway.Init")
	protected Payment() {
	}

	private Payment(PaymentId id, ClientId clientId, String orderId, Money amount, String paymentMethod,
			CaptureMethod captureMethod, @Nullable Instant authorizationExpiresAt, Instant now) {
		this.id = id.value();
		this.captureMethod = captureMethod.wireName();
		this.authorizationExpiresAt = authorizationExpiresAt;
		this.clientId = clientId.value();
		this.orderId = orderId;
		this.amount = amount.minorUnits();
		this.currency = amount.currency().getCurrencyCode();
		this.paymentMethod = paymentMethod;
		this.status = PaymentStatus.PENDING;
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
		return new Payment(id, clientId, orderId, amount, paymentMethod, CaptureMethod.AUTOMATIC, null, now);
	}

	/**
	 * A new payment to authorize only, {@code PENDING} until the provider answers, then
	 * {@code AUTHORIZED} (docs/design.md section 15).
	 * @param id the payment id, also the source of the provider idempotency key
	 * @param clientId the owning client
	 * @param orderId the client's order id
	 * @param amount the amount to authorize, in minor units
	 * @param paymentMethod the provider payment method token
	 * @param authorizationWindow the provider's hold window, counted from {@code now}
	 * @param now the creation time (UTC)
	 * @return the payment, not yet persisted
	 */
	public static Payment authorizing(PaymentId id, ClientId clientId, String orderId, Money amount,
			String paymentMethod, Duration authorizationWindow, Instant now) {
		return new Payment(id, clientId, orderId, amount, paymentMethod, CaptureMethod.MANUAL,
				now.plus(authorizationWindow), now);
	}

	@Override
	protected String kind() {
		return "payment";
	}

	@Override
	protected ProviderAttempt attempt() {
		return this.attempt;
	}

	@Override
	public boolean pending() {
		return this.status == PaymentStatus.PENDING;
	}

	@Override
	protected PaymentStatus currentStatus() {
		return this.status;
	}

	/**
	 * An approved manual payment is {@code AUTHORIZED}: the provider holds the money but
	 * has not taken it.
	 */
	@Override
	protected void moveTo(Outcome outcome, Instant now) {
		this.status = (outcome == Outcome.SUCCEEDED && captureMethod() == CaptureMethod.MANUAL)
				? PaymentStatus.AUTHORIZED : PaymentStatus.valueOf(outcome.name());
		this.updatedAt = now;
	}

	/**
	 * A hold the provider ends sooner than the window counted from the payment's creation
	 * lapses when the provider says (docs/design.md section 15); a later end changes
	 * nothing, so Payonce never refuses a capture later than the provider would.
	 */
	@Override
	protected void holdExpiresAt(Instant expiresAt) {
		if (this.authorizationExpiresAt != null && expiresAt.isBefore(this.authorizationExpiresAt)) {
			this.authorizationExpiresAt = expiresAt;
		}
	}

	@Override
	protected void touch(Instant now) {
		this.updatedAt = now;
	}

	/**
	 * The charge to send to the provider, the same on every attempt of the current
	 * provider key generation.
	 * @return the charge request with this payment's provider idempotency key
	 */
	public ChargeRequest chargeRequest() {
		return new ChargeRequest(this.id, providerIdempotencyKey(), amount(), this.paymentMethod, this.orderId,
				providerReference(), createdAt(), captureMethod());
	}

	public PaymentId id() {
		return new PaymentId(this.id);
	}

	@Override
	public UUID resourceId() {
		return this.id;
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

	public PaymentStatus status() {
		return this.status;
	}

	/**
	 * Whether the payment is charged at once or authorized for later captures.
	 * @return the capture method
	 */
	public CaptureMethod captureMethod() {
		return CaptureMethod.fromWireName(this.captureMethod)
			.orElseThrow(() -> new IllegalStateException("Unknown capture method " + this.captureMethod));
	}

	/**
	 * What captures took so far, as read with this payment.
	 * @return minor units of the payment's currency, 0 to the amount
	 */
	public long capturedAmount() {
		return this.capturedAmount;
	}

	/**
	 * What captures may still take: the amount less captured and in-flight captures while
	 * {@code AUTHORIZED}, else 0 (docs/design.md section 15).
	 * @return minor units of the payment's currency
	 */
	public long capturableAmount() {
		return (this.status == PaymentStatus.AUTHORIZED) ? this.amount - this.capturedAmount - this.capturesInFlight
				: 0;
	}

	/**
	 * When a manual payment's authorization lapses (docs/design.md section 15).
	 * @return UTC, microsecond precision; {@code null} for an automatic payment
	 */
	public @Nullable Instant authorizationExpiresAt() {
		return this.authorizationExpiresAt;
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
	@Override
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
	@Override
	protected @Nullable Long version() {
		return this.version;
	}

}
