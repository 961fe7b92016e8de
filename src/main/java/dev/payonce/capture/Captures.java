package dev.payonce.capture;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import dev.payonce.provider.ProviderRows;

/**
 * Stored captures. Only the methods Payonce uses; captures are never deleted.
 */
public interface Captures extends ProviderRows<Capture> {

	/**
	 * A capture by id, only if it is of this payment and this client: one statement, the
	 * same work for an unknown id and for another payment's or client's capture.
	 */
	Optional<Capture> findByIdAndPaymentIdAndClientId(UUID id, UUID paymentId, String clientId);

	/**
	 * A payment's captures, oldest first (a range scan of
	 * {@code ix_captures_payment_created_id}); an authorization is captured a few times
	 * at most.
	 */
	List<Capture> findByPaymentIdAndClientIdOrderByCreatedAtAscIdAsc(UUID paymentId, String clientId);

	/**
	 * A payment's captures in one status, oldest first; for a provider's event about the
	 * payment's authorization, which settles its pending capture.
	 */
	List<Capture> findByPaymentIdAndStatusOrderByCreatedAtAsc(UUID paymentId, CaptureStatus status);

}
