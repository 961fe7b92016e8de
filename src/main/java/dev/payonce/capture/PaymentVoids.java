package dev.payonce.capture;

import dev.payonce.provider.ProviderRows;

/** Stored voids. Only the methods Payonce uses; voids are never deleted. */
public interface PaymentVoids extends ProviderRows<PaymentVoid> {

}
