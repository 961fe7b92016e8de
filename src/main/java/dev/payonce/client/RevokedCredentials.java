package dev.payonce.client;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

import dev.payonce.web.Problems;

/**
 * The request's API key was revoked or its client disabled after the request was
 * authenticated and before its effect: answered exactly like any other refused
 * credential, {@code 401 unauthorized} with {@code WWW-Authenticate}, the body from
 * {@link Problems}.
 */
public class RevokedCredentials extends ErrorResponseException {

	/**
	 * The problem, as for any refused credential.
	 */
	public RevokedCredentials() {
		super(HttpStatus.UNAUTHORIZED, Problems.forStatus(401), null);
		getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"payonce\"");
	}

}
