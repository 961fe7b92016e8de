package io.payonce.client;

/**
 * An answer the API document does not describe: a status no operation answers without a
 * problem body, or a body that is not the documented JSON. For a mutating call it is
 * thrown only for a final status (a {@code 2xx} or a {@code 4xx}) whose body cannot be
 * read, so the key's outcome is whatever the service stored: read it again with the same
 * key.
 */
public final class UnexpectedAnswerException extends PayonceException {

	UnexpectedAnswerException(String message, Throwable cause) {
		super(message, cause);
	}

}
