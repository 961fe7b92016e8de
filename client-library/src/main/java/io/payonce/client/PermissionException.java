package io.payonce.client;

/**
 * {@code 403}: {@code forbidden}, or {@code api-key-mode-mismatch} (a test key where the
 * provider is live, or the other way round). Nothing was stored or charged.
 */
public final class PermissionException extends ProblemException {

	PermissionException(Problem problem) {
		super(problem);
	}

}
