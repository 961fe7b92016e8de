package dev.payonce.payment;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.data.domain.Limit;
import org.springframework.data.jpa.repository.Query;

import dev.payonce.provider.ProviderRows;

/**
 * Stored payments. Only the methods Payonce uses; payments are never deleted.
 */
public interface Payments extends ProviderRows<Payment> {

	Payment save(Payment payment);

	Optional<Payment> findByIdAndClientId(UUID id, String clientId);

	/**
	 * The payments that can have a second charge at the provider (docs/design.md section
	 * 5, "Extra charges"): final, created since {@code since}, and either charged under
	 * more than one provider key generation or FAILED (a request the provider executed
	 * late may still have charged). Served by the partial index
	 * {@code ix_payments_extra_charge_sweep}.
	 */
	@Query("SELECT p FROM Payment p WHERE p.createdAt >= :since AND p.status <> dev.payonce.payment.PaymentStatus.PENDING"
			+ " AND (p.attempt.providerKeyGeneration > 1 OR p.status = dev.payonce.payment.PaymentStatus.FAILED)"
			+ " ORDER BY p.createdAt")
	List<Payment> findExtraChargeCandidates(Instant since, Limit limit);

}
