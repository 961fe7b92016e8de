/**
 * The Stripe adapter of the {@link dev.payonce.provider.PaymentGateway} port, on Stripe's
 * official Java client, active with {@code payonce.gateway.provider=stripe}: charges are
 * PaymentIntents confirmed at once under the payment's provider idempotency key, lookups
 * search PaymentIntents by Payonce's payment id, and {@code POST /webhooks/stripe}
 * verifies signed events and hands them over as
 * {@link dev.payonce.provider.ProviderEvent}s to
 * {@link dev.payonce.provider.ProviderEventHandler}. No Stripe type leaves this package.
 */
@NullMarked
package dev.payonce.gateway.stripe;

import org.jspecify.annotations.NullMarked;
