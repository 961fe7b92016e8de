package dev.payonce.provider;

/**
 * How a provider takes several captures of one authorization (docs/design.md section 15).
 * Payonce claims captures to match, so that it never sends a capture the provider would
 * certainly refuse and never captures more than was authorized.
 */
public enum CaptureSequence {

	/** Several captures, even at once, until their sum reaches the amount. */
	CONCURRENT,

	/**
	 * Several captures, one at a time: a capture is claimed only while no other capture
	 * of the payment is in flight, so each one knows what the authorization has left and
	 * whether it is the last (Stripe with multicapture,
	 * https://docs.stripe.com/payments/multicapture).
	 */
	ONE_AT_A_TIME,

	/**
	 * One capture: the first one the provider makes ends the authorization and the
	 * provider releases what it did not take, so the payment is then captured for good
	 * and no later capture is claimed (Stripe without multicapture: {@code final_capture}
	 * defaults to true, https://docs.stripe.com/api/payment_intents/capture).
	 */
	ONCE;

	/**
	 * Whether a capture may be claimed while another capture of the payment is in flight.
	 * @return {@code true} for {@link #CONCURRENT} only
	 */
	public boolean overlaps() {
		return this == CONCURRENT;
	}

	/**
	 * Whether a capture the provider made ends the authorization whatever its amount.
	 * @return {@code true} for {@link #ONCE} only
	 */
	public boolean releasesTheRest() {
		return this == ONCE;
	}

}
