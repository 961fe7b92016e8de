/**
 * The payment provider as every operation sees it: the
 * {@link dev.payonce.provider.PaymentGateway} port and its values (requests with plain
 * ids, {@link dev.payonce.provider.GatewayResult}, {@link dev.payonce.provider.Money}),
 * the provider-call meters, the timing guard between leases and provider calls, and what
 * payments, refunds and webhook events share around the engine (the completion over the
 * copy an act step read, {@link dev.payonce.provider.OperationContext}) (docs/design.md
 * sections 4 and 5). It depends on no operation: payments, refunds and webhook events
 * depend on it, and the adapters under {@code gateway} implement its port.
 */
@NullMarked
package dev.payonce.provider;

import org.jspecify.annotations.NullMarked;
