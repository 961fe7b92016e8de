package dev.payonce.client.security;

import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;

import dev.payonce.client.ClientAdministration;
import dev.payonce.client.ClientId;
import dev.payonce.client.CurrentClient;
import dev.payonce.client.RevokedCredentials;
import dev.payonce.idempotency.ClaimCondition;
import dev.payonce.idempotency.ClaimGuard;
import dev.payonce.idempotency.IdempotencyScope;

/**
 * Authorisation at the point of effect (issue 15, item 1): inside every claim (its
 * transaction, or its one statement) of a request authenticated by an API key, the key
 * and its client are checked again ({@link CurrentClient#confirmAuthorized()}, or the
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
	 * client's row until it commits; {@code 401} ({@link RevokedCredentials}) if it is
	 * not true.
	 */
	@Override
	public Optional<ClaimCondition> condition(IdempotencyScope scope, String operation) {
		Authentication caller = SecurityContextHolder.getContext().getAuthentication();
		String keyDigest = keyDigest(caller);
		if (keyDigest == null) {
			return Optional.of(ClaimCondition.none());
		}
		if (!(caller.getPrincipal() instanceof ClientId clientId)) {
			// Not a client's key: let check() fail as it does in a claim transaction.
			return Optional.empty();
		}
		return Optional.of(new ClaimCondition(ClientAdministration.AUTHORIZATION_CHECK,
				List.of(clientId.value(), keyDigest), () -> {
					throw new RevokedCredentials();
				}));
	}

	/** Only a request authenticated by an API key has a key to check again. */
	private static @Nullable String keyDigest(@Nullable Authentication caller) {
		return (caller instanceof CallerAuthentication client) ? client.keyDigest() : null;
	}

}
