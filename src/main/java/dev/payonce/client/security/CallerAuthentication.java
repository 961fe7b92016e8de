package dev.payonce.client.security;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

import dev.payonce.client.ClientId;

/**
 * An authenticated caller: a client (role {@code CLIENT}, principal its {@link ClientId})
 * or the administrator (role {@code ADMIN}). Holds no credentials: the presented secret
 * is forgotten once checked.
 */
final class CallerAuthentication extends AbstractAuthenticationToken {

	static final String CLIENT = "ROLE_CLIENT";

	static final String ADMIN = "ROLE_ADMIN";

	private final Object principal;

	private CallerAuthentication(Object principal, String role) {
		super(List.of(new SimpleGrantedAuthority(role)));
		this.principal = principal;
		setAuthenticated(true);
	}

	static CallerAuthentication client(ClientId clientId) {
		return new CallerAuthentication(clientId, CLIENT);
	}

	static CallerAuthentication admin() {
		return new CallerAuthentication("admin", ADMIN);
	}

	@Override
	public @Nullable Object getCredentials() {
		return null;
	}

	@Override
	public Object getPrincipal() {
		return this.principal;
	}

}
