package dev.payonce.payment;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;
import org.springframework.data.repository.query.Param;

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
	 * Writes the state of a refund read in an earlier transaction and moved in memory
	 * since, as {@link Payments#writeIfUnchanged} does for payments: one {@code UPDATE}
	 * of its mutable columns, only if its {@code @Version} is still {@code readVersion}.
	 * Must run inside a transaction.
	 * @param refund the refund, moved in memory since it was read
	 * @param readVersion the version it was read with
	 * @return {@code true} if written; {@code false} if the refund changed since it was
	 * read (or is gone), and nothing was written
	 */
	default boolean writeIfUnchanged(Refund refund, long readVersion) {
		return writeIfVersion(refund.getId(), readVersion, refund.status(), refund.providerReference(),
				refund.declineCode(), refund.providerKeyGeneration(), refund.providerKeyReplayedAt(),
				refund.updatedAt()) == 1;
	}

	/**
	 * See {@link #writeIfUnchanged}; the persistence context is neither flushed nor
	 * cleared.
	 */
	@Modifying
	@Query("""
			UPDATE Refund r SET r.status = :status, r.providerReference = :providerReference,
			    r.declineCode = :declineCode, r.providerKeyGeneration = :providerKeyGeneration,
			    r.providerKeyReplayedAt = :providerKeyReplayedAt, r.updatedAt = :updatedAt, r.version = r.version + 1
			WHERE r.id = :id AND r.version = :readVersion""")
	int writeIfVersion(@Param("id") UUID id, @Param("readVersion") long readVersion,
			@Param("status") RefundStatus status, @Param("providerReference") @Nullable String providerReference,
			@Param("declineCode") @Nullable String declineCode,
			@Param("providerKeyGeneration") int providerKeyGeneration,
			@Param("providerKeyReplayedAt") @Nullable Instant providerKeyReplayedAt,
			@Param("updatedAt") Instant updatedAt);

}
