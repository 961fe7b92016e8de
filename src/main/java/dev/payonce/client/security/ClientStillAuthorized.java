package dev.payonce.client.security;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;

import dev.payonce.client.CurrentClient;
import dev.payonce.idempotency.ClaimGuard;
import dev.payonce.idempotency.IdempotencyScope;

/**
 * Authorisation at the point of effect (issue 15, item 1): inside every claim transaction
 * of a request authenticated by an API key, the key and its client are checked again
 * ({@link CurrentClient#confirmAuthorized()}), holding the client's row until the claim
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
		Authentication caller = SecurityContextHolder.getContext().getAuthentication();
		// Only a request authenticated by an API key has a key to check again.
		if (caller instanceof CallerAuthentication client && client.keyDigest() != null) {
			this.currentClient.confirmAuthorized();
		}
	}

}
