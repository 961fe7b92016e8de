package io.payonce.client;

/**
 * {@code 404}: {@code payment-not-found} or {@code refund-not-found}; another client's
 * payment looks exactly the same.
 */
public final class NotFoundException extends ProblemException {

	NotFoundException(Problem problem) {
		super(problem);
	}

}
