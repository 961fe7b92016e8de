/**
 * Captures of a manual payment's authorization, an operation of the idempotency engine:
 * {@link dev.payonce.capture.CaptureService} reserves the amount on the payment in the
 * claim, captures through the {@link dev.payonce.provider.PaymentGateway} port outside
 * any transaction and settles the reservation in the fenced completion (docs/design.md
 * section 15). It depends on {@code payment} (the captured payment), never the reverse;
 * the {@code web} sub-package holds its HTTP API.
 */
@NullMarked
package dev.payonce.capture;

import org.jspecify.annotations.NullMarked;
