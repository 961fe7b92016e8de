package dev.payonce.provider;

import java.util.UUID;

/**
 * What Payonce asks the provider to capture of a manual payment's authorization
 * (docs/design.md section 15); the same on every attempt of one provider key generation.
 *
 * @param captureId Payonce's capture id
 * @param providerIdempotencyKey the key the provider deduplicates by
 * ({@code payonce-capture-<id>}, with its generation)
 * @param chargeReference the provider's id of the authorized charge
 * @param amount the amount to capture, in minor units of the payment's currency
 * @param remaining minor units of the authorization that no capture has taken or holds,
 * before this one: a provider that captures once (Stripe without multicapture) releases
 * the rest when this capture is less
 */
public record CaptureRequest(UUID captureId, String providerIdempotencyKey, String chargeReference, Money amount,
		long remaining) {

}
