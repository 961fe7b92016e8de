package dev.payonce.idempotency.web;

import java.time.Duration;

import org.springframework.http.HttpStatus;

import dev.payonce.web.ApiProblem;

/**
 * The problems of the idempotency contract (docs/design.md section 2), the same for every
 * operation, each with its stable type slug.
 */
public final class IdempotencyProblems {

	private IdempotencyProblems() {
	}

	/**
	 * No {@code Idempotency-Key} header.
	 * @return 400 {@code idempotency-key-missing}
	 */
	public static ApiProblem keyMissing() {
		return new ApiProblem(HttpStatus.BAD_REQUEST, "idempotency-key-missing", "Idempotency-Key missing",
				"This request requires an Idempotency-Key header naming this operation.");
	}

	/**
	 * A malformed {@code Idempotency-Key}, or one sent twice.
	 * @param why the rule broken, never the key itself
	 * @return 400 {@code idempotency-key-invalid}
	 */
	public static ApiProblem keyInvalid(String why) {
		return new ApiProblem(HttpStatus.BAD_REQUEST, "idempotency-key-invalid", "Idempotency-Key invalid",
				"The Idempotency-Key header must be 1-255 visible ASCII characters, bare or as an RFC 8941 string: "
						+ why + ".");
	}

	/**
	 * The key was used with a different request, or names another operation.
	 * @return 422 {@code idempotency-key-reused}
	 */
	public static ApiProblem keyReused() {
		return new ApiProblem(HttpStatus.UNPROCESSABLE_CONTENT, "idempotency-key-reused", "Idempotency-Key reused",
				"This Idempotency-Key was already used with a different request. Use a new key for a new operation.");
	}

	/**
	 * Another request with the key holds a live lease.
	 * @param retryAfter when to retry
	 * @return 409 {@code idempotency-request-in-progress} with {@code Retry-After}
	 */
	public static ApiProblem inProgress(Duration retryAfter) {
		return new ApiProblem(HttpStatus.CONFLICT, "idempotency-request-in-progress", "Request in progress",
				"A request with this Idempotency-Key is still being processed. Retry after the Retry-After interval.")
			.retryAfter(retryAfter);
	}

	/**
	 * The scope holds the most live keys allowed and this key is new
	 * ({@link dev.payonce.idempotency.IdempotencyService#quotaRefusal}).
	 * @param retryAfter when an older stored response expires
	 * @return 429 {@code idempotency-quota-exceeded} with {@code Retry-After}
	 */
	public static ApiProblem quotaExceeded(Duration retryAfter) {
		return new ApiProblem(HttpStatus.TOO_MANY_REQUESTS, "idempotency-quota-exceeded", "Too many live keys",
				"This client holds the most live Idempotency-Keys allowed; a new key is accepted once older stored "
						+ "responses expire (Retry-After). Retries of existing keys still work.")
			.retryAfter(retryAfter);
	}

}
