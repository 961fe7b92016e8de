/**
 * Providers' webhook events, an operation of the idempotency engine:
 * {@link dev.payonce.webhook.ProviderEvents} applies each event once (the outcome of a
 * payment, refund, capture or void, money moved outside Payonce), records it in the event
 * ledger ({@link dev.payonce.webhook.WebhookEvents}) and leaves what it cannot settle yet
 * to reconciliation (docs/design.md section 10). It depends on {@code payment},
 * {@code refund} and {@code capture}, never the reverse; a provider's adapter translates
 * its events into {@link dev.payonce.provider.ProviderEvent}, handed over through
 * {@link dev.payonce.provider.ProviderEventHandler}.
 */
@NullMarked
package dev.payonce.webhook;

import org.jspecify.annotations.NullMarked;
