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

	Optional<Refund> findById(UUID id);

	List<Refund> findByPaymentIdAndClientIdOrderByCreatedAt(UUID paymentId, String clientId);

}
