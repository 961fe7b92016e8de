/**
 * The idempotency engine's HTTP support, for any operation's controller: the
 * {@link dev.payonce.idempotency.IdempotencyKey} handler argument read from the
 * {@code Idempotency-Key} header, the idempotency problems
 * ({@link dev.payonce.idempotency.web.IdempotencyProblems}) and the rendering of a stored
 * response with {@code Idempotent-Replayed}
 * ({@link dev.payonce.idempotency.web.StoredResponses}).
 */
@NullMarked
@NamedInterface("web")
package dev.payonce.idempotency.web;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.NamedInterface;
