package dev.payonce.web;

import java.net.URI;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.TransactionException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * The one place errors become RFC 9457 problems. Spring MVC's own exceptions (404, 405,
 * 415, ...) get a stable Payonce type in place of {@code about:blank};
 * {@link ApiProblem}s pass as thrown; anything unexpected is logged with its stack and
 * answered with a generic problem that reveals nothing.
 */
@RestControllerAdvice
class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

	private static final Logger log = LoggerFactory.getLogger(ProblemDetailsAdvice.class);

	/** Slugs for the statuses Spring MVC raises by itself. */
	private static final Map<Integer, String> SLUGS = Map.of(400, "invalid-request", 404, "not-found", 405,
			"method-not-allowed", 406, "not-acceptable", 413, "payload-too-large", 415, "unsupported-media-type", 500,
			"internal-error", 503, "service-unavailable");

	/**
	 * Payonce's own words for Spring MVC's errors, whose details name framework
	 * internals.
	 */
	private static final Map<Integer, String[]> TEXTS = Map.of(400,
			new String[] { "Invalid request", "The request is malformed." }, 404,
			new String[] { "Not found", "No such resource." }, 405,
			new String[] { "Method not allowed", "This resource does not support the method." }, 406,
			new String[] { "Not acceptable", "This resource answers application/json or application/problem+json." },
			415, new String[] { "Unsupported media type", "Send the request body as application/json." });

	@ExceptionHandler({ DataAccessException.class, TransactionException.class })
	ResponseEntity<Object> databaseUnavailable(Exception ex, WebRequest request) {
		log.error("Database failure while handling a request", ex);
		ProblemDetail problem = ApiProblem.problem(HttpStatus.SERVICE_UNAVAILABLE, "service-unavailable",
				"Service unavailable",
				"The service could not reach its database. Retrying with the same Idempotency-Key is safe.");
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.RETRY_AFTER, "1");
		return handleExceptionInternal(ex, problem, headers, HttpStatus.SERVICE_UNAVAILABLE, request);
	}

	@ExceptionHandler(Exception.class)
	ResponseEntity<Object> unexpected(Exception ex, WebRequest request) {
		log.error("Unexpected failure while handling a request", ex);
		ProblemDetail problem = ApiProblem.problem(HttpStatus.INTERNAL_SERVER_ERROR, "internal-error", "Internal error",
				"An unexpected error occurred.");
		return handleExceptionInternal(ex, problem, new HttpHeaders(), HttpStatus.INTERNAL_SERVER_ERROR, request);
	}

	@Override
	protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		ProblemDetail problem = ApiProblem.problem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
				"The request body breaks the contract; see errors.");
		problem.setProperty("errors",
				ex.getFieldErrors()
					.stream()
					.map((error) -> Map.of("field", error.getField(), "message",
							(error.getDefaultMessage() != null) ? error.getDefaultMessage() : "is invalid"))
					.toList());
		return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
	}

	@Override
	protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		// The parser's message quotes the input and names classes: never pass it on.
		ProblemDetail problem = ApiProblem.problem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
				"The request body is not valid JSON of the expected shape.");
		return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
	}

	@Override
	protected ResponseEntity<Object> handleExceptionInternal(Exception ex, @Nullable Object body, HttpHeaders headers,
			HttpStatusCode statusCode, WebRequest request) {
		ProblemDetail problem;
		if (body instanceof ProblemDetail detail) {
			problem = detail;
		}
		else if (body == null && ex instanceof ErrorResponse errorResponse) {
			problem = errorResponse.getBody();
		}
		else {
			problem = ProblemDetail.forStatus(statusCode);
		}
		if (problem.getType() == null || URI.create("about:blank").equals(problem.getType())) {
			problem.setType(ProblemTypes.of(SLUGS.getOrDefault(statusCode.value(), "http-" + statusCode.value())));
			String[] text = TEXTS.get(statusCode.value());
			if (text != null) {
				problem.setTitle(text[0]);
				problem.setDetail(text[1]);
			}
		}
		return super.handleExceptionInternal(ex, problem, headers, statusCode, request);
	}

}
