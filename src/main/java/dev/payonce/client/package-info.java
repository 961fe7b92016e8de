/**
 * Who is calling: the {@link dev.payonce.client.ClientId} every idempotency key and
 * payment is scoped to. Until authentication exists every request belongs to one built-in
 * client; the scope is in the schema from the first migration so that adding clients
 * changes no data.
 */
@NullMarked
package dev.payonce.client;

import org.jspecify.annotations.NullMarked;
