package io.payonce.client;

/**
 * One request of a call, sent unchanged by each of its attempts.
 *
 * @param operation the operation's name, for {@link Attempt}
 * @param method {@code GET} or {@code POST}
 * @param pathAndQuery the path below the base URI, with its query
 * @param body the JSON body, or {@code null} for none
 * @param key the idempotency key of a mutating call, or {@code null}
 */
record ApiRequest(String operation, String method, String pathAndQuery, byte[] body, IdempotencyKey key) {

}
