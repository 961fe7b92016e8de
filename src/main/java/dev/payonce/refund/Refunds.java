package dev.payonce.refund;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.data.domain.Limit;
import org.springframework.data.jpa.repository.Query;

import dev.payonce.provider.ProviderRows;

/**
 * Stored refunds. Only the methods Payonce uses; refunds are never deleted.
 */
public interface Refunds extends ProviderRows<Refund> {

	Refund save(Refund refund);

	Refund saveAndFlush(Refund refund);

	/**
	 * A refund by id, only if it is of this payment and this client: one statement, the
	 * same work for an unknown id and for another payment's or client's refund.
	 */
	Optional<Refund> findByIdAndPaymentIdAndClientId(UUID id, UUID paymentId, String clientId);

	/**
	 * The first {@code limit} refunds of a payment in the list's total order: a range
	 * scan of {@code ix_refunds_payment_created_id} that stops after {@code limit} rows.
	 */
	@Query(value = """
			SELECT * FROM refunds
			WHERE payment_id = :paymentId AND client_id = :clientId
			ORDER BY created_at, id
			LIMIT :limit""", nativeQuery = true)
	List<Refund> findFirstPage(UUID paymentId, String clientId, int limit);

	/**
	 * The {@code limit} refunds of a payment that follow {@code (createdAt, id)} in the
	 * list's total order. The row comparison is one index condition on
	 * {@code ix_refunds_payment_created_id}, so the scan starts at the cursor
	 * (PostgreSQL, "Row Constructor Comparison":
	 * https://www.postgresql.org/docs/current/functions-comparisons.html).
	 */
	@Query(value = """
			SELECT * FROM refunds
			WHERE payment_id = :paymentId AND client_id = :clientId AND (created_at, id) > (:createdAt, :id)
			ORDER BY created_at, id
			LIMIT :limit""", nativeQuery = true)
	List<Refund> findPageAfter(UUID paymentId, String clientId, Instant createdAt, UUID id, int limit);

	/**
	 * The refunds that can have a second refund at the provider (docs/design.md section
	 * 5, "Extra charges"): final, created since {@code since}, and either sent under more
	 * than one provider key generation or FAILED. Served by the partial index
	 * {@code ix_refunds_extra_refund_sweep}.
	 */
	@Query("SELECT r FROM Refund r WHERE r.createdAt >= :since AND r.status <> dev.payonce.refund.RefundStatus.PENDING"
			+ " AND (r.attempt.providerKeyGeneration > 1 OR r.status = dev.payonce.refund.RefundStatus.FAILED)"
			+ " ORDER BY r.createdAt")
	List<Refund> findExtraRefundCandidates(Instant since, Limit limit);

}
