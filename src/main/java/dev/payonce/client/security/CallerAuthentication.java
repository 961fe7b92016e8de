package dev.payonce.client.security;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

import dev.payonce.client.ClientId;

/**
 * An authenticated caller: a client (role {@code CLIENT}, principal its {@link ClientId})
 * or the administrator (role {@code ADMIN}). Holds no credentials: the presented secret
 * is forgotten once checked; a client's key is remembered only as its SHA-256 digest
 * (what the database stores), to check it again at the point of effect.
 */
final class CallerAuthentication extends AbstractAuthenticationToken {

	static final String CLIENT = "ROLE_CLIENT";

	static final String ADMIN = "ROLE_ADMIN";

	private final Object principal;

	private final @Nullable String keyDigest;

	private final boolean live;

	private CallerAuthentication(Object principal, String role, @Nullable String keyDigest, boolean live) {
		super(List.of(new SimpleGrantedAuthority(role)));
		this.principal = principal;
		this.keyDigest = keyDigest;
		this.live = live;
		setAuthenticated(true);
	}

	static CallerAuthentication client(ClientId clientId, String keyDigest, boolean live) {
		return new CallerAuthentication(clientId, CLIENT, keyDigest, live);
	}

	static CallerAuthentication admin() {
		return new CallerAuthentication("admin", ADMIN, null, false);
	}

	/** Whether a client authenticated with a live key ({@code sk_live_}). */
	boolean live() {
		return this.live;
	}

	/** The SHA-256 digest of a client's API key; {@code null} for the administrator. */
	@Nullable String keyDigest() {
		return this.keyDigest;
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
