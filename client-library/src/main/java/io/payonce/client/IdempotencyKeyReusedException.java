package io.payonce.client;

/**
 * {@code 422 idempotency-key-reused}: the key was used with a different request, or names
 * another operation (a payment's key on a refund). Nothing executed. This is a bug in the
 * caller: one key names one request.
 */
public final class IdempotencyKeyReusedException extends ProblemException {

	IdempotencyKeyReusedException(Problem problem) {
		super(problem);
	}

}
