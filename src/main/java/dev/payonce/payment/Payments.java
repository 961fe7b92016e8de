package dev.payonce.payment;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;
import org.springframework.data.repository.query.Param;

/**
 * Stored payments. Only the methods Payonce uses; payments are never deleted.
 */
interface Payments extends Repository<Payment, UUID> {

	Payment save(Payment payment);

	/**
	 * Writes the changes of the payments read in the current transaction now, so that a
	 * {@code @Version} conflict surfaces here. Cheaper than {@code saveAndFlush} for an
	 * entity this transaction loaded: no merge of the entity onto itself.
	 * @throws jakarta.persistence.TransactionRequiredException outside a transaction
	 */
	void flush();

	Optional<Payment> findById(UUID id);

	Optional<Payment> findByIdAndClientId(UUID id, String clientId);

	/**
	 * Writes the state of a payment that was read in an earlier transaction and moved in
	 * memory since, without reading it again: one {@code UPDATE} of its mutable columns,
	 * made only if the row's {@code @Version} is still {@code readVersion}, which it
	 * moves on by one as a JPA write would. So a payment changed by anyone since it was
	 * read is never overwritten. {@code refunded_amount} is never written here (see
	 * {@link Payment#refundedAmount}). Must run inside a transaction.
	 * @param payment the payment, moved in memory since it was read
	 * @param readVersion the version it was read with
	 * @return {@code true} if written; {@code false} if the payment changed since it was
	 * read (or is gone), and nothing was written
	 */
	default boolean writeIfUnchanged(Payment payment, long readVersion) {
		return writeIfVersion(payment.getId(), readVersion, payment.status(), payment.providerReference(),
				payment.declineCode(), payment.providerKeyGeneration(), payment.providerKeyReplayedAt(),
				payment.updatedAt()) == 1;
	}

	/**
	 * See {@link #writeIfUnchanged}; the persistence context is neither flushed nor
	 * cleared.
	 */
	@Modifying
	@Query("""
			UPDATE Payment p SET p.status = :status, p.providerReference = :providerReference,
			    p.declineCode = :declineCode, p.providerKeyGeneration = :providerKeyGeneration,
			    p.providerKeyReplayedAt = :providerKeyReplayedAt, p.updatedAt = :updatedAt, p.version = p.version + 1
			WHERE p.id = :id AND p.version = :readVersion""")
	int writeIfVersion(@Param("id") UUID id, @Param("readVersion") long readVersion,
			@Param("status") PaymentStatus status, @Param("providerReference") @Nullable String providerReference,
			@Param("declineCode") @Nullable String declineCode,
			@Param("providerKeyGeneration") int providerKeyGeneration,
			@Param("providerKeyReplayedAt") @Nullable Instant providerKeyReplayedAt,
			@Param("updatedAt") Instant updatedAt);

}
