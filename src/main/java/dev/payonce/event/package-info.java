/**
 * Merchant events (docs/events.md): every change a client acts on (a payment, refund,
 * capture or void reaching a final status) is written to an outbox in the transaction
 * that made it ({@link dev.payonce.event.EventOutbox}), delivered to the client's webhook
 * endpoints signed with the Standard Webhooks scheme, with retries, and readable as a
 * feed. It depends on the engine (to declare its insert) and on {@code client} and
 * {@code web}; the operations depend on it, never the reverse. The {@code web}
 * sub-package holds its HTTP API.
 */
@NullMarked
package dev.payonce.event;

import org.jspecify.annotations.NullMarked;
