package dev.payonce.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Replaces Spring Boot's default error JSON: whatever Tomcat or a filter answers with
 * {@code sendError} (a timed-out body, a refused request) is rendered as the problem of
 * its status by {@link Problems}. A database failure that escaped to here is
 * {@code 503 service-unavailable}.
 */
@RestController
class ProblemErrorController implements ErrorController {

	@RequestMapping("${server.error.path:/error}")
	ResponseEntity<String> error(HttpServletRequest request) {
		Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
		int status = (code instanceof Integer value && value >= 400) ? value : 500;
		Object exception = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
		HttpHeaders headers = new HttpHeaders();
		if (exception instanceof Throwable failure && Failures.isDatabaseFailure(failure)) {
			status = 503;
		}
		if (status == 503) {
			headers.set(HttpHeaders.RETRY_AFTER, Problems.DATABASE_RETRY_AFTER_SECONDS);
		}
		return ResponseEntity.status(status)
			.headers(headers)
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.body(Problems.json(Problems.forStatus(status)));
	}

}
