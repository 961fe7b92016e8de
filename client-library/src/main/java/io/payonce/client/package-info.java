/**
 * A Java client of the Payonce API that retries safely. Every mutating call takes an
 * {@link io.payonce.client.IdempotencyKey} the caller owns and stores before the first
 * attempt; the library retries only the answers that say to (connection failures and
 * timeouts, {@code 409 idempotency-request-in-progress}, {@code 429}, {@code 503}),
 * always with that key and the same body, honours {@code Retry-After}, and bounds each
 * call by a total deadline ({@link io.payonce.client.RetryPolicy}). Outcomes are values
 * ({@link io.payonce.client.PaymentOutcome}, {@link io.payonce.client.RefundOutcome}),
 * {@link io.payonce.client.OutcomeUnknown} included; answers that say the request itself
 * is wrong are {@link io.payonce.client.ProblemException}s.
 *
 * <p>
 * It depends on nothing of the service: {@code java.net.http} and Jackson 3 only. The
 * wire format is the service's OpenAPI document ({@code docs/openapi.json}); the types
 * here are written by hand to it, not generated.
 */
package io.payonce.client;
