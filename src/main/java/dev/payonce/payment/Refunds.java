package dev.payonce.payment;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

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

}
