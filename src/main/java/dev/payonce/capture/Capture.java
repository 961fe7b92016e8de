package dev.payonce.capture;

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
import dev.payonce.provider.CaptureRequest;
import dev.payonce.provider.Money;
import dev.payonce.provider.ProviderAttempt;
import dev.payonce.provider.ProviderResource;

/**
 * A capture of a manual payment's authorization: created {@code PENDING} in the claim
 * together with its reservation on the payment, then moved once to a final status. Never
 * deleted (docs/design.md section 15).
 */
@Entity
@Table(name = "captures")
public class Capture extends ProviderResource {

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

	@Enumerated(EnumType.STRING)
	private CaptureStatus status;

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

	/**
	 * Minor units the authorization had left before this capture, as the claim's
	 * reservation returned it: kept, so that every attempt under the capture's provider
	 * idempotency key sends the same parameters (docs/design.md section 15); {@code null}
	 * only for a capture claimed before it was kept.
	 */
	@Column(name = "remaining_before", updatable = false)
	private @Nullable Long remaining;

	/** For JPA only. */
	@SuppressWarnings("NullAway.Init")
	protected Capture() {
	}

	/**
	 * A new capture whose amount is yet to be reserved on the payment: the claim's
	 * reservation sets its amount (all that remains, or what was asked), currency (the
	 * payment's) and the payment's charge reference ({@link CaptureTable}).
	 * @param id the capture id, also the source of the provider idempotency key
	 * @param paymentId the captured payment
	 * @param clientId the owning client, the payment's
	 * @param now the creation time (UTC)
	 * @return the capture, not yet persisted
	 */
	static Capture reserving(CaptureId id, PaymentId paymentId, ClientId clientId, Instant now) {
		Capture capture = new Capture();
		capture.id = id.value();
		capture.paymentId = paymentId.value();
		capture.clientId = clientId.value();
		capture.status = CaptureStatus.PENDING;
		capture.createdAt = now;
		capture.updatedAt = now;
		return capture;
	}

	/**
	 * The payment's charge reference as the claim's reservation returned it; {@code null}
	 * for a capture read from the database.
	 * @return the charge reference, or {@code null}
	 */
	@Nullable String chargeReference() {
		return this.chargeReference;
	}

	/**
	 * What the authorization had left before this capture, as the claim's reservation
	 * returned it and the capture keeps; {@code null} only for a capture claimed before
	 * it was kept.
	 * @return minor units, or {@code null}
	 */
	@Nullable Long remaining() {
		return this.remaining;
	}

	@Override
	protected String kind() {
		return "capture";
	}

	@Override
	protected ProviderAttempt attempt() {
		return this.attempt;
	}

	@Override
	public boolean pending() {
		return this.status == CaptureStatus.PENDING;
	}

	@Override
	protected CaptureStatus currentStatus() {
		return this.status;
	}

	@Override
	protected void moveTo(Outcome outcome, Instant now) {
		this.status = CaptureStatus.valueOf(outcome.name());
		this.updatedAt = now;
	}

	@Override
	protected void touch(Instant now) {
		this.updatedAt = now;
	}

	/**
	 * A capture moves to a new provider key generation only after its key was answered
	 * from what the provider saved, as a refund (docs/design.md section 8).
	 */
	@Override
	protected boolean newGenerationNeedsReplay() {
		return true;
	}

	/**
	 * The capture to send to the provider, the same on every attempt of the current
	 * provider key generation.
	 * @param chargeReference the provider's id of the authorized charge
	 * @param remaining what the authorization had left before this capture
	 * @return the request with this capture's provider idempotency key
	 */
	public CaptureRequest captureRequest(String chargeReference, long remaining) {
		return new CaptureRequest(this.id, providerIdempotencyKey(), chargeReference, amount(), remaining);
	}

	public CaptureId id() {
		return new CaptureId(this.id);
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

	public CaptureStatus status() {
		return this.status;
	}

	/**
	 * When the capture was created.
	 * @return the creation time, UTC, microsecond precision
	 */
	@Override
	public Instant createdAt() {
		return this.createdAt;
	}

	/**
	 * When the capture last changed.
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
