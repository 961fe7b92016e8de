package dev.payonce.idempotency;

import java.util.UUID;

import dev.payonce.client.ClientId;

/**
 * What a caller asks to claim.
 *
 * @param clientId the calling client; keys are scoped to it
 * @param key the idempotency key
 * @param fingerprint the request fingerprint
 * @param resourceId the id the operation will create if this claim is the first; ignored
 * when the key already has a record (the record's own resource id wins)
 */
public record ClaimRequest(ClientId clientId, IdempotencyKey key, RequestFingerprint fingerprint, UUID resourceId) {

}
