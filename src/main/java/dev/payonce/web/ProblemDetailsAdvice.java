package dev.payonce.web;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.servlet.http.HttpServletResponse;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.exc.InvalidNullException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.transaction.TransactionException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import dev.payonce.web.edge.QueryStringFilter;

/**
 * The one place Spring MVC's errors become RFC 9457 problems, all built by
 * {@link Problems}. Spring MVC's own exceptions (404, 405, 415, ...) get a stable Payonce
 * type in place of {@code about:blank}; {@link ApiProblem}s pass as thrown; a database
 * failure is {@code 503 service-unavailable}; a client that hangs up or stalls is not a
 * bug and is never logged at ERROR; anything else is a bug, logged with its stack and
 * answered with a generic problem that reveals nothing.
 */
@RestControllerAdvice
class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

	private static final Logger log = LoggerFactory.getLogger(ProblemDetailsAdvice.class);

	@ExceptionHandler({ DataAccessException.class, TransactionException.class })
	ResponseEntity<Object> databaseUnavailable(Exception ex, WebRequest request) {
		Failures.logDatabaseFailure(log, ex);
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.RETRY_AFTER, Problems.DATABASE_RETRY_AFTER_SECONDS);
		return handleExceptionInternal(ex, Problems.forStatus(503), headers, HttpStatus.SERVICE_UNAVAILABLE, request);
	}

	/**
	 * The firewall refuses a request part only when code reads it (a header or parameter
	 * value); its message quotes the value, so it is never logged or shown.
	 */
	@ExceptionHandler(RequestRejectedException.class)
	ResponseEntity<Object> rejected(RequestRejectedException ex, WebRequest request) {
		log.debug("Request rejected by the firewall: {}", ex.getClass().getSimpleName());
		return handleExceptionInternal(ex, Problems.rejectedRequest(), new HttpHeaders(), HttpStatus.BAD_REQUEST,
				request);
	}

	/**
	 * Tomcat could not parse the parameters (a query string that passed
	 * {@link QueryStringFilter} cannot fail; a form body can): {@code 400}, and its
	 * message, which quotes the parameter, is never logged or shown.
	 */
	@ExceptionHandler(InvalidParameterException.class)
	ResponseEntity<Object> malformedParameters(InvalidParameterException ex, WebRequest request) {
		log.debug("Malformed request parameters: answered 400");
		return handleExceptionInternal(ex, QueryStringFilter.malformed(), new HttpHeaders(), HttpStatus.BAD_REQUEST,
				request);
	}

	/**
	 * Reading the body failed because the client hung up (nothing can be answered) or
	 * stalled past the connection timeout ({@code 408 request-timeout}).
	 */
	@ExceptionHandler(IOException.class)
	@Nullable ResponseEntity<Object> bodyNotRead(IOException ex, WebRequest request, HttpServletResponse response)
			throws IOException {
		if (Failures.isTimeout(ex) && !response.isCommitted()) {
			log.info("Request body timed out; answered 408");
			response.setHeader(HttpHeaders.CONNECTION, "close");
			return handleExceptionInternal(ex, Problems.forStatus(408), new HttpHeaders(), HttpStatus.REQUEST_TIMEOUT,
					request);
		}
		if (Failures.isClientGone(ex) || response.isCommitted()) {
			// Tomcat has answered already (a timed-out body is its 408) or nobody
			// listens.
			log.debug("Client went away while the request was handled: {}", ex.getClass().getSimpleName());
			return null;
		}
		return unexpected(ex, request);
	}

	@ExceptionHandler(Exception.class)
	ResponseEntity<Object> unexpected(Exception ex, WebRequest request) {
		log.error("Unexpected failure while handling a request", ex);
		return handleExceptionInternal(ex, Problems.forStatus(500), new HttpHeaders(), HttpStatus.INTERNAL_SERVER_ERROR,
				request);
	}

	@Override
	protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
				"The request body breaks the contract; see errors.");
		problem.setProperty("errors",
				ex.getFieldErrors()
					.stream()
					.map((error) -> Map.of("field", error.getField(), "message",
							(error.getDefaultMessage() != null) ? error.getDefaultMessage() : "is invalid"))
					.toList());
		return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
	}

	/**
	 * A client's unsupported method is answered, not logged: Spring's default writes a
	 * {@code WARN} per request, which a client could turn into a flood.
	 */
	@Override
	protected ResponseEntity<Object> handleHttpRequestMethodNotSupported(HttpRequestMethodNotSupportedException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		return handleExceptionInternal(ex, null, headers, status, request);
	}

	@Override
	protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		// The parser's message quotes the input and names classes: never pass it on.
		ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
				"The request body is not valid JSON of the expected shape.");
		Map<String, String> error = fieldError(ex.getMostSpecificCause());
		if (error != null) {
			problem.setProperty("errors", List.of(error));
		}
		return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
	}

	/**
	 * The member a body broke, in the {@code FieldError} shape, when the parser knows it;
	 * the parser's own message is never used.
	 */
	private static @Nullable Map<String, String> fieldError(Throwable cause) {
		if (!(cause instanceof JacksonException parse) || parse.getPath().isEmpty()) {
			return null;
		}
		String field = parse.getPath()
			.stream()
			.map((reference) -> (reference.getPropertyName() != null) ? reference.getPropertyName()
					: String.valueOf(reference.getIndex()))
			.collect(Collectors.joining("."));
		String message = switch (parse) {
			case InvalidNullException nul -> "must not be null (omit the field instead)";
			case UnrecognizedPropertyException unknown -> "is not a known field";
			case MismatchedInputException mismatched -> "has the wrong JSON type";
			default -> "is invalid";
		};
		return Map.of("field", Problems.echoed(field), "message", message);
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
		if (Problems.isUntyped(problem)) {
			ProblemDetail standard = Problems.forStatus(statusCode.value());
			problem.setType(standard.getType());
			problem.setTitle(standard.getTitle());
			problem.setDetail(standard.getDetail());
		}
		Problems.identified(problem);
		// A problem is always application/problem+json: preset, so that an Accept header
		// that names something else cannot leave the error without a body.
		HttpHeaders problemHeaders = new HttpHeaders();
		problemHeaders.putAll(headers);
		problemHeaders.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
		return super.handleExceptionInternal(ex, problem, problemHeaders, statusCode, request);
	}

}
