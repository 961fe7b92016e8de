package dev.payonce.capture;

import java.time.Instant;
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
import dev.payonce.provider.ProviderAttempt;
import dev.payonce.provider.ProviderResource;
import dev.payonce.provider.VoidRequest;

/**
 * A void of a manual payment's authorization: created {@code PENDING} in the claim
 * together with its hold on the payment ({@code void_in_flight}), then moved once to a
 * final status; a {@code SUCCEEDED} void leaves the payment {@code VOIDED}. Never deleted
 * (docs/design.md section 15).
 */
@Entity
@Table(name = "voids")
public class PaymentVoid extends ProviderResource {

	@Id
	private UUID id;

	@Column(name = "payment_id", updatable = false)
	private UUID paymentId;

	@Column(name = "client_id", updatable = false)
	private String clientId;

	@Enumerated(EnumType.STRING)
	private VoidStatus status;

	@Column(name = "created_at", updatable = false)
	private Instant createdAt;

	@Column(name = "updated_at")
	private Instant updatedAt;

	/** The provider reference, decline code and provider key generation. */
	@Embedded
	private ProviderAttempt attempt = new ProviderAttempt();

	@Version
	private @Nullable Long version;

	/** The payment's charge reference as the claim returned it; not a column. */
	@Transient
	private @Nullable String chargeReference;

	/** For JPA only. */
	@SuppressWarnings("NullAway.Init")
	protected PaymentVoid() {
	}

	/**
	 * A new void, {@code PENDING} until the provider answers; the claim holds the payment
	 * for it ({@link VoidTable}).
	 * @param id the void id, also the source of the provider idempotency key
	 * @param paymentId the payment whose authorization it releases
	 * @param clientId the owning client, the payment's
	 * @param now the creation time (UTC)
	 * @return the void, not yet persisted
	 */
	static PaymentVoid pending(VoidId id, PaymentId paymentId, ClientId clientId, Instant now) {
		PaymentVoid paymentVoid = new PaymentVoid();
		paymentVoid.id = id.value();
		paymentVoid.paymentId = paymentId.value();
		paymentVoid.clientId = clientId.value();
		paymentVoid.status = VoidStatus.PENDING;
		paymentVoid.createdAt = now;
		paymentVoid.updatedAt = now;
		return paymentVoid;
	}

	/**
	 * The payment's charge reference as the claim returned it; {@code null} for a void
	 * read from the database.
	 * @return the charge reference, or {@code null}
	 */
	@Nullable String chargeReference() {
		return this.chargeReference;
	}

	@Override
	protected String kind() {
		return "void";
	}

	@Override
	protected ProviderAttempt attempt() {
		return this.attempt;
	}

	@Override
	public boolean pending() {
		return this.status == VoidStatus.PENDING;
	}

	@Override
	protected VoidStatus currentStatus() {
		return this.status;
	}

	@Override
	protected void moveTo(Outcome outcome, Instant now) {
		this.status = VoidStatus.valueOf(outcome.name());
		this.updatedAt = now;
	}

	@Override
	protected void touch(Instant now) {
		this.updatedAt = now;
	}

	/** As a capture's: a new generation only after the key's replay was seen. */
	@Override
	protected boolean newGenerationNeedsReplay() {
		return true;
	}

	/**
	 * The void to send to the provider.
	 * @param chargeReference the provider's id of the authorized charge
	 * @return the request with this void's provider idempotency key
	 */
	public VoidRequest voidRequest(String chargeReference) {
		return new VoidRequest(this.id, providerIdempotencyKey(), chargeReference);
	}

	public VoidId id() {
		return new VoidId(this.id);
	}

	@Override
	public UUID resourceId() {
		return this.id;
	}

	public PaymentId paymentId() {
		return new PaymentId(this.paymentId);
	}

	/**
	 * The owning client, the payment's.
	 * @return the client
	 */
	public ClientId clientId() {
		return new ClientId(this.clientId);
	}

	public VoidStatus status() {
		return this.status;
	}

	/**
	 * When the void was created.
	 * @return UTC, microsecond precision
	 */
	@Override
	public Instant createdAt() {
		return this.createdAt;
	}

	/**
	 * When the void last changed.
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
