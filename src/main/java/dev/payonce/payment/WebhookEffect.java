package dev.payonce.payment;

import java.time.Duration;

/**
 * What applying a {@link WebhookEvent} did. Every case but {@link Deferred} means the
 * event is done with and should be acknowledged (2xx), so the provider stops delivering
 * it.
 */
public sealed interface WebhookEffect {

	/** The event settled a PENDING payment; recorded with it, in one transaction. */
	record Applied() implements WebhookEffect {
	}

	/** The event was applied or ignored before: nothing changed. */
	record Duplicate() implements WebhookEffect {
	}

	/**
	 * The event changes nothing: it names no payment, states no final outcome, or its
	 * payment is already final (events never move a payment backwards).
	 *
	 * @param reason a short internal reason, for logs only
	 */
	record Ignored(String reason) implements WebhookEffect {
	}

	/**
	 * Another attempt holds the payment right now (a request or the reconciler is talking
	 * to the provider): nothing was recorded, and the provider should deliver the event
	 * again later.
	 *
	 * @param retryAfter when to deliver again
	 */
	record Deferred(Duration retryAfter) implements WebhookEffect {
	}

}
