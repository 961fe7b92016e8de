package dev.payonce.provider;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What the provider said about a charge (docs/design.md section 5). Expected outcomes are
 * values, never exceptions.
 */
public sealed interface GatewayResult {

	/**
	 * The provider charged, or for a manual payment authorized (docs/design.md section
	 * 15).
	 *
	 * @param providerReference the provider's id of the charge
	 * @param holdExpiresAt when the provider says an authorization it just made lapses
	 * (Stripe: the Charge's {@code payment_method_details.card.capture_before}), if it
	 * says so and it is an authorization, else {@code null}: the payment's hold window
	 * then stays {@link PaymentGateway#authorizationWindow()} from its creation
	 */
	record Approved(String providerReference, @Nullable Instant holdExpiresAt) implements GatewayResult {

		/**
		 * An approval that states no end of a hold.
		 * @param providerReference the provider's id of the charge
		 */
		public Approved(String providerReference) {
			this(providerReference, null);
		}

	}

	/**
	 * The provider refused the payment method or the amount, or refused the request for
	 * good (an answer no retry can change, docs/design.md section 5); final.
	 *
	 * @param providerReference the provider's id of the declined charge
	 * @param declineCode the provider's reason, for example {@code card_declined}
	 */
	record Declined(String providerReference, String declineCode) implements GatewayResult {
	}

	/**
	 * The provider refused this call before processing it (connection refused, rate
	 * limited, authentication): this call moved no money. An earlier call for the same
	 * payment may have; a lookup's {@code NotAttempted} means the provider has no charge
	 * (see {@link PaymentGateway#lookup}).
	 *
	 * @param reason a short internal reason, for logs only
	 */
	record NotAttempted(String reason) implements GatewayResult {
	}

	/**
	 * The outcome is unknown (timeout, reset, 5xx, a charge without a final status yet):
	 * the provider may or may not have charged.
	 *
	 * @param reason a short internal reason, for logs only
	 * @param providerReference the provider's id of the charge or refund when the answer
	 * named one (Stripe: a PaymentIntent still {@code processing}, or a 5xx whose error
	 * carries the PaymentIntent), else {@code null}; the payment keeps it so that a
	 * lookup reads that object by id instead of searching
	 * @param replayed whether the provider answered from what it saved under the provider
	 * idempotency key (Stripe: {@code Idempotent-Replayed: true}): the request under that
	 * key that executed has ended, and no later request under it is executed again
	 * (docs/design.md section 5)
	 */
	record Unknown(String reason, @Nullable String providerReference, boolean replayed) implements GatewayResult {

		/**
		 * An unknown outcome that names no provider object and was not a replay.
		 * @param reason a short internal reason, for logs only
		 */
		public Unknown(String reason) {
			this(reason, null, false);
		}

	}

}
