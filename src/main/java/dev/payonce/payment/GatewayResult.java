package dev.payonce.payment;

/**
 * What the provider said about a charge (docs/design.md section 5). Expected outcomes are
 * values, never exceptions.
 */
public sealed interface GatewayResult {

	/**
	 * The provider charged.
	 *
	 * @param providerReference the provider's id of the charge
	 */
	record Approved(String providerReference) implements GatewayResult {
	}

	/**
	 * The provider refused the payment method or the amount; final.
	 *
	 * @param providerReference the provider's id of the declined charge
	 * @param declineCode the provider's reason, for example {@code card_declined}
	 */
	record Declined(String providerReference, String declineCode) implements GatewayResult {
	}

	/**
	 * The provider refused before processing (connection refused, rate limited,
	 * authentication): nothing was charged.
	 *
	 * @param reason a short internal reason, for logs only
	 */
	record NotAttempted(String reason) implements GatewayResult {
	}

	/**
	 * The outcome is unknown (timeout, reset, 5xx): the provider may or may not have
	 * charged.
	 *
	 * @param reason a short internal reason, for logs only
	 */
	record Unknown(String reason) implements GatewayResult {
	}

}
