package io.payonce.client;

/**
 * {@code 401 unauthorized}: no valid API key (unknown, revoked, rotated, or its client
 * disabled). Nothing was read or written.
 */
public final class AuthenticationException extends ProblemException {

	AuthenticationException(Problem problem) {
		super(problem);
	}

}
