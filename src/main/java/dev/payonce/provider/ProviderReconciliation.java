package dev.payonce.provider;

import dev.payonce.idempotency.ReconciliationStep.Settlement;

/**
 * The reconciliation step of every {@link ProviderOperation} (docs/design.md section 4,
 * step 5): <b>looks the resource up</b> at the provider and never acts.
 *
 * <ul>
 * <li>Found (approved or declined): completes resource and record exactly as a request
 * would.</li>
 * <li>Not found, and the provider never named the resource: past {@code give-up-after}
 * the resource FAILED, its record COMPLETED with the stored failure; before that, where
 * the operation says so ({@link ProviderOperation#reattemptsUnderNewKey}), the resource
 * moves to a new provider key generation in the fenced release, so that a key whose first
 * attempt was answered with a saved 500 cannot hold it forever.</li>
 * <li>Otherwise, or if the lookup failed: unsettled; a client retry or a later run
 * decides.</li>
 * </ul>
 * The lookup is proof because the reconciler leaves an operation's records alone at least
 * its settle time ({@link ProviderOperation#settleTime()}) after their lease ended, and
 * no other attempt can act while the reconciler's lease is held.
 */
final class ProviderReconciliation {

	private ProviderReconciliation() {
	}

	static <R extends ProviderResource> Settlement settle(ProviderOperation<R, ?> operation, R resource) {
		return switch (operation.lookup(resource)) {
			case GatewayResult.Approved approved -> new Settlement.Found(operation.succeeded(approved));
			case GatewayResult.Declined declined -> new Settlement.Found(operation.declined(declined));
			case GatewayResult.NotAttempted notFound -> notFound(operation, resource, notFound);
			case GatewayResult.Unknown unknown -> new Settlement.Unsettled(unknown.reason());
		};
	}

	private static <R extends ProviderResource> Settlement notFound(ProviderOperation<R, ?> operation, R resource,
			GatewayResult.NotAttempted notFound) {
		if (resource.providerReference() != null) {
			// The provider named it: it exists, whatever a lookup says.
			return new Settlement.Unsettled(notFound.reason());
		}
		if (operation.givenUp(resource)) {
			return new Settlement.GaveUp(operation.failed());
		}
		if (operation.reattemptsUnderNewKey(resource)) {
			return new Settlement.Reattempt(notFound.reason(),
					operation.newProviderKeyGeneration(resource.providerKeyGeneration()));
		}
		return new Settlement.Unsettled(notFound.reason());
	}

}
