package dev.payonce.web;

import java.util.LinkedHashSet;
import java.util.Set;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Replaces Spring Boot's default error JSON: whatever Tomcat or a filter answers with
 * {@code sendError} (a timed-out body, a refused request) is rendered as the problem of
 * its status by {@link Problems}. A database failure that escaped to here is
 * {@code 503 service-unavailable}. A client's own request for {@code /error} is a route
 * like any unknown one: {@code 404}. Tomcat refuses {@code TRACE} itself with an
 * {@code Allow} header naming every method of the servlet; here it names the methods the
 * path really has, as for any other method it does not support.
 */
// Not an operation of the API: the container forwards failed requests here.
@Hidden
@RestController
class ProblemErrorController implements ErrorController {

	private final ObjectProvider<RequestMappingInfoHandlerMapping> mappings;

	ProblemErrorController(ObjectProvider<RequestMappingInfoHandlerMapping> mappings) {
		this.mappings = mappings;
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
			Set<HttpMethod> allowed = allowedMethods(path);
			if (allowed.isEmpty()) {
				return problem(404, headers, path);
			}
			headers.setAllow(allowed);
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

	/**
	 * The methods the handler mappings serve at this path, as Spring MVC's own
	 * {@code 405} names them: with {@code HEAD} for {@code GET}, and {@code OPTIONS}.
	 */
	private Set<HttpMethod> allowedMethods(String path) {
		PathContainer container = PathContainer.parsePath(path);
		Set<HttpMethod> allowed = new LinkedHashSet<>();
		this.mappings.orderedStream()
			.flatMap((mapping) -> mapping.getHandlerMethods().keySet().stream())
			.filter((info) -> info.getPathPatternsCondition() != null && info.getPathPatternsCondition()
				.getPatterns()
				.stream()
				.anyMatch((pattern) -> pattern.matches(container)))
			.forEach((info) -> info.getMethodsCondition()
				.getMethods()
				.forEach((method) -> allowed.add(HttpMethod.valueOf(method.name()))));
		if (allowed.contains(HttpMethod.GET)) {
			allowed.add(HttpMethod.HEAD);
		}
		if (!allowed.isEmpty()) {
			allowed.add(HttpMethod.OPTIONS);
		}
		return allowed;
	}

}
