package dev.payonce.client;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

import dev.payonce.web.ApiProblem;

/**
 * The request's API key was revoked or its client disabled after the request was
 * authenticated and before its effect: answered exactly like any other refused
 * credential, {@code 401 unauthorized} with {@code WWW-Authenticate}.
 */
public class RevokedCredentials extends ApiProblem {

	/**
	 * The problem, as for any refused credential.
	 */
	public RevokedCredentials() {
		super(HttpStatus.UNAUTHORIZED, "unauthorized", "Unauthorized",
				"Send valid credentials as Authorization: Bearer <token>: an API key, or the admin token for the admin API.");
		getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"payonce\"");
	}

}
