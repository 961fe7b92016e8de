package io.payonce.client;

/**
 * Everything this library throws: {@link ProblemException} (the service answered that the
 * request cannot succeed as it is), {@link UnavailableException} (a read got no final
 * answer within its retries) or {@link UnexpectedAnswerException} (an answer the API
 * document does not describe). Expected outcomes of mutating calls, an unknown outcome
 * included, are values, not exceptions.
 */
public abstract sealed class PayonceException extends RuntimeException
		permits ProblemException, UnavailableException, UnexpectedAnswerException {

	PayonceException(String message, Throwable cause) {
		super(message, cause);
	}

}
