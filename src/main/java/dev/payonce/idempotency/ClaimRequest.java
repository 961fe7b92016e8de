package dev.payonce.idempotency;

/**
 * What a caller asks the engine to run once: the scope and idempotency key that name the
 * operation, and the request fingerprint that says whether a retry is the same request.
 *
 * @param scope whose key it is (for the payments API, the calling client)
 * @param key the idempotency key
 * @param fingerprint the request fingerprint
 */
public record ClaimRequest(IdempotencyScope scope, IdempotencyKey key, RequestFingerprint fingerprint) {

}
