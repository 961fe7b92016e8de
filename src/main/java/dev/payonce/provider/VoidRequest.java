package dev.payonce.provider;

import java.util.UUID;

/**
 * What Payonce asks the provider to release of a manual payment's authorization: all that
 * no capture took (docs/design.md section 15). The same on every attempt of one provider
 * key generation.
 *
 * @param voidId Payonce's void id
 * @param providerIdempotencyKey the key the provider deduplicates by
 * ({@code payonce-void-<id>}, with its generation)
 * @param chargeReference the provider's id of the authorized charge
 */
public record VoidRequest(UUID voidId, String providerIdempotencyKey, String chargeReference) {

}
