package dev.payonce.web;

import java.time.Duration;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/**
 * An expected HTTP error with its RFC 9457 problem, thrown by a module's {@code web}
 * package and rendered by {@link ProblemDetailsAdvice}. The detail is written for the
 * client and never carries infrastructure messages.
 */
public class ApiProblem extends ErrorResponseException {

	/**
	 * A problem.
	 * @param status the HTTP status
	 * @param slug the type's slug, see {@link ProblemTypes}
	 * @param title a short, stable summary
	 * @param detail this occurrence, for the client
	 */
	public ApiProblem(HttpStatus status, String slug, String title, String detail) {
		super(status, Problems.of(status, slug, title, detail), null);
	}

	/**
	 * Adds an extension member to the problem body.
	 * @param name the member name
	 * @param value its value
	 * @return this problem
	 */
	public ApiProblem with(String name, Object value) {
		getBody().setProperty(name, value);
		return this;
	}

	/**
	 * Adds a {@code Retry-After} header in whole seconds, at least one.
	 * @param retryAfter when the client should retry
	 * @return this problem
	 */
	public ApiProblem retryAfter(Duration retryAfter) {
		getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds(retryAfter)));
		return this;
	}

	/**
	 * A {@code Retry-After} value: whole seconds, rounded up, at least one.
	 * @param retryAfter the wait
	 * @return seconds
	 */
	public static long retryAfterSeconds(Duration retryAfter) {
		long seconds = retryAfter.toSeconds() + ((retryAfter.toNanosPart() > 0) ? 1 : 0);
		return Math.max(1, seconds);
	}

}
