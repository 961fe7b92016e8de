package dev.payonce.payment;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.repository.Repository;

/**
 * Stored payments. Only the methods Payonce uses; payments are never deleted.
 */
interface Payments extends Repository<Payment, UUID> {

	Payment save(Payment payment);

	Payment saveAndFlush(Payment payment);

	Optional<Payment> findById(UUID id);

	Optional<Payment> findByIdAndClientId(UUID id, String clientId);

}
