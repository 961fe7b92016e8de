package io.payonce.client;

/**
 * {@code 400} ({@code invalid-request} with {@link Problem#errors()},
 * {@code idempotency-key-missing}, {@code idempotency-key-invalid},
 * {@code amount-not-supported}), {@code 406}, {@code 413}, {@code 415} or {@code 417}:
 * the request must change. Nothing was stored, so the corrected request may use the same
 * key.
 */
public final class InvalidRequestException extends ProblemException {

	InvalidRequestException(Problem problem) {
		super(problem);
	}

}
