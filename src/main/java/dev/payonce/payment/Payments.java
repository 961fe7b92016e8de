package dev.payonce.payment;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.repository.Repository;

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

}
