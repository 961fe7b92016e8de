package dev.payonce.client.security;

import org.jspecify.annotations.Nullable;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;

import dev.payonce.client.ClientAdministration;
import dev.payonce.client.ClientId;
import dev.payonce.client.CurrentClient;
import dev.payonce.client.RevokedCredentials;
import dev.payonce.idempotency.ClaimGuard;
import dev.payonce.idempotency.IdempotencyScope;

/**
 * Authorisation at the point of effect (docs/design.md section 4): inside every claim
 * (its transaction, or its one statement) of a request authenticated by an API key, the
 * key and its client are checked again ({@link CurrentClient#confirmAuthorized()}, or the
 * same function in the claim's statement), holding the client's row until the claim
 * commits. A key rotated or a client disabled after the headers were authenticated, while
 * the body was still arriving, refuses the claim with {@code 401}: nothing is claimed,
 * created or charged.
 */
@Component
class ClientStillAuthorized implements ClaimGuard {

	private final CurrentClient currentClient;

	ClientStillAuthorized(CurrentClient currentClient) {
		this.currentClient = currentClient;
	}

	@Override
	public void check(IdempotencyScope scope, String operation) {
		if (keyDigest(SecurityContextHolder.getContext().getAuthentication()) != null) {
			this.currentClient.confirmAuthorized();
		}
	}

	/**
	 * The same check for a claim in one statement: the function
	 * {@code client_still_authorized} evaluated in the claim's statement, holding the
	 * client's row until it commits (docs/design.md section 4, "The claim in one
	 * statement").
	 */
	@Override
	public String condition() {
		return ClientAdministration.AUTHORIZATION_CHECK;
	}

	/**
	 * The client and the digest of the key it authenticated with; nothing to check for a
	 * request not authenticated by an API key.
	 */
	@Override
	public Object @Nullable [] arguments(IdempotencyScope scope, String operation) {
		Authentication caller = SecurityContextHolder.getContext().getAuthentication();
		String keyDigest = keyDigest(caller);
		if (keyDigest == null) {
			return null;
		}
		if (!(caller.getPrincipal() instanceof ClientId clientId)) {
			// A key digest comes only with a client's key: refused as a revoked one.
			throw new RevokedCredentials();
		}
		return new Object[] { clientId.value(), keyDigest };
	}

	/** {@code 401} ({@link RevokedCredentials}), as {@link #check} answers. */
	@Override
	public void refuse() {
		throw new RevokedCredentials();
	}

	/** Only a request authenticated by an API key has a key to check again. */
	private static @Nullable String keyDigest(@Nullable Authentication caller) {
		return (caller instanceof CallerAuthentication client) ? client.keyDigest() : null;
	}

}
