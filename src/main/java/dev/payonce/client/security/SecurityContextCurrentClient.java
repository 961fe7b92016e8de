package dev.payonce.client.security;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

import dev.payonce.client.ClientAdministration;
import dev.payonce.client.ClientId;
import dev.payonce.client.CurrentClient;
import dev.payonce.client.RevokedCredentials;

/**
 * The calling client, from the request's security context as {@link BearerTokenFilter}
 * set it.
 */
final class SecurityContextCurrentClient implements CurrentClient {

	private final ClientAdministration clients;

	SecurityContextCurrentClient(ClientAdministration clients) {
		this.clients = clients;
	}

	@Override
	public ClientId clientId() {
		return caller().getPrincipal() instanceof ClientId clientId ? clientId : notAClient();
	}

	@Override
	public boolean live() {
		CallerAuthentication caller = caller();
		return (caller.getPrincipal() instanceof ClientId) ? caller.live() : notAClient();
	}

	@Override
	public void confirmAuthorized() {
		CallerAuthentication caller = caller();
		String keyDigest = caller.keyDigest();
		if (keyDigest == null || !this.clients.holdAuthorization(clientId(), keyDigest)) {
			throw new RevokedCredentials();
		}
	}

	private static CallerAuthentication caller() {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (authentication instanceof CallerAuthentication caller) {
			return caller;
		}
		return notAClient();
	}

	private static <T> T notAClient() {
		throw new IllegalStateException("The request is not authenticated as a client");
	}

}
