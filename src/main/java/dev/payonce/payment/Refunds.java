package dev.payonce.payment;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.data.domain.Limit;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;

/**
 * Stored refunds. Only the methods Payonce uses; refunds are never deleted.
 */
interface Refunds extends Repository<Refund, UUID> {

	Refund save(Refund refund);

	Refund saveAndFlush(Refund refund);

	/**
	 * Writes the changes of the refunds read in the current transaction now, so that a
	 * {@code @Version} conflict surfaces here. Cheaper than {@link #saveAndFlush} for an
	 * entity this transaction loaded: no merge of the entity onto itself.
	 * @throws jakarta.persistence.TransactionRequiredException outside a transaction
	 */
	void flush();

	Optional<Refund> findById(UUID id);

	List<Refund> findByPaymentIdAndClientIdOrderByCreatedAt(UUID paymentId, String clientId);

	/**
	 * The refunds that can have a second refund at the provider (docs/design.md section
	 * 5, "Extra charges"): final, created since {@code since}, and either sent under more
	 * than one provider key generation or FAILED. Served by the partial index
	 * {@code ix_refunds_extra_refund_sweep}.
	 */
	@Query("SELECT r FROM Refund r WHERE r.createdAt >= :since AND r.status <> dev.payonce.payment.RefundStatus.PENDING"
			+ " AND (r.providerKeyGeneration > 1 OR r.status = dev.payonce.payment.RefundStatus.FAILED)"
			+ " ORDER BY r.createdAt")
	List<Refund> findExtraRefundCandidates(Instant since, Limit limit);

}
