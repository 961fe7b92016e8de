/**
 * Who is calling: clients, their API keys, and the {@link dev.payonce.client.ClientId}
 * every idempotency key and payment is scoped to. Every request to the payments API
 * authenticates with {@code Authorization: Bearer <API key>}; the admin API with a
 * separate admin token. API keys are stored only as SHA-256 digests.
 */
@NullMarked
package dev.payonce.client;

import org.jspecify.annotations.NullMarked;
