package dev.payonce.provider;

/**
 * A charge the provider holds for a payment that Payonce did not record as the payment's
 * charge, and what the safety net did about it (docs/design.md section 5, "Extra
 * charges").
 *
 * @param providerReference the provider's id of the extra charge (Stripe: a
 * PaymentIntent)
 * @param reversal what the sweep did with it
 */
public record ExtraCharge(String providerReference, Reversal reversal) {

	/** What the sweep did with an extra charge. */
	public enum Reversal {

		/** Not yet captured or still in flight: canceled, no money moved. */
		CANCELED,
		/** Charged: refunded in full by this sweep. */
		REFUNDED,
		/** An earlier sweep (or another instance) already refunded or canceled it. */
		ALREADY_REVERSED,
		/** The provider refused or could not be reached; the next sweep tries again. */
		NOT_REVERSED

	}

}
