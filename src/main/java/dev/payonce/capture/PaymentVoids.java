package dev.payonce.capture;

import java.util.List;
import java.util.UUID;

import dev.payonce.provider.ProviderRows;

/** Stored voids. Only the methods Payonce uses; voids are never deleted. */
public interface PaymentVoids extends ProviderRows<PaymentVoid> {

	/**
	 * A payment's voids in one status; for a provider's event about the payment's
	 * authorization, which settles its pending void (at most one holds the payment).
	 */
	List<PaymentVoid> findByPaymentIdAndStatus(UUID paymentId, VoidStatus status);

}
