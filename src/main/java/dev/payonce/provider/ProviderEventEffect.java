package dev.payonce.provider;

import java.time.Duration;

/**
 * What a delivery of a {@link ProviderEvent} did. {@link Applied}, {@link Duplicate} and
 * {@link Ignored} mean the event is done with and is acknowledged (2xx), so the provider
 * stops delivering it; {@link InProgress} and {@link Deferred} are answered so that the
 * provider delivers it again (docs/design.md, "Webhooks").
 */
public sealed interface ProviderEventEffect {

	/**
	 * The event settled a PENDING payment or refund, recorded with it in one transaction.
	 */
	record Applied() implements ProviderEventEffect {
	}

	/**
	 * The event was handled before: its stored acknowledgement was replayed, or its
	 * effect is already on record. Nothing changed.
	 */
	record Duplicate() implements ProviderEventEffect {
	}

	/**
	 * The event changes nothing: a type Payonce does not consume, an object Payonce does
	 * not know, no final outcome, or a payment or refund that is already final (events
	 * never move anything backwards).
	 *
	 * @param reason a short internal reason, for logs only
	 */
	record Ignored(String reason) implements ProviderEventEffect {
	}

	/**
	 * Another delivery of the same event is being handled right now (it holds the event's
	 * lease): nothing was done, and the provider should deliver it again.
	 *
	 * @param retryAfter when to deliver again
	 */
	record InProgress(Duration retryAfter) implements ProviderEventEffect {
	}

	/**
	 * Another attempt holds the payment or refund right now (a request or the reconciler
	 * is talking to the provider): nothing was recorded, and the provider should deliver
	 * the event again later.
	 *
	 * @param retryAfter when to deliver again
	 */
	record Deferred(Duration retryAfter) implements ProviderEventEffect {
	}

}
