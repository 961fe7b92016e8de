package dev.payonce.web;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.payonce.web.edge.AllowedMethods;

/**
 * Replaces Spring Boot's default error JSON: whatever Tomcat or a filter answers with
 * {@code sendError} (a timed-out body, a refused request) is rendered as the problem of
 * its status by {@link Problems}. A database failure that escaped to here is
 * {@code 503 service-unavailable}. A client's own request for {@code /error} is a route
 * like any unknown one: {@code 404}. Tomcat refuses {@code TRACE} itself with an
 * {@code Allow} header naming every method of the servlet; here it names the methods the
 * path really has, in the one form of {@link AllowedMethods}.
 */
// Not an operation of the API: the container forwards failed requests here.
@Hidden
@RestController
class ProblemErrorController implements ErrorController {

	private final AllowedMethods allowedMethods;

	ProblemErrorController(AllowedMethods allowedMethods) {
		this.allowedMethods = allowedMethods;
	}

	@RequestMapping("${server.error.path:/error}")
	ResponseEntity<String> error(HttpServletRequest request) {
		Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
		if (code == null) {
			return problem(404, new HttpHeaders(), request.getRequestURI());
		}
		int status = (code instanceof Integer value && value >= 400) ? value : 500;
		Object exception = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
		HttpHeaders headers = new HttpHeaders();
		if (status == 405 && request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) instanceof String path) {
			String allowed = this.allowedMethods.header(path);
			if (allowed.isEmpty()) {
				return problem(404, headers, path);
			}
			headers.set(HttpHeaders.ALLOW, allowed);
		}
		if (exception instanceof Throwable failure && Failures.isDatabaseFailure(failure)) {
			status = 503;
		}
		if (status == 503) {
			headers.set(HttpHeaders.RETRY_AFTER, Problems.DATABASE_RETRY_AFTER_SECONDS);
		}
		Object path = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
		return problem(status, headers, (path instanceof String value) ? value : null);
	}

	private static ResponseEntity<String> problem(int status, HttpHeaders headers, @Nullable String path) {
		return ResponseEntity.status(status)
			.headers(headers)
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.body(Problems.json(Problems.at(Problems.forStatus(status), path)));
	}

}
