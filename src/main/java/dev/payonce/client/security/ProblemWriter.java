package dev.payonce.client.security;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;

import dev.payonce.web.ProblemTypes;

/**
 * Answers authentication and authorisation failures as RFC 9457 problems, before any
 * controller runs: 401 {@code unauthorized} with {@code WWW-Authenticate: Bearer} (RFC
 * 6750), 403 {@code forbidden}. The body never says which part of the credential was
 * wrong.
 */
final class ProblemWriter implements AuthenticationEntryPoint, AccessDeniedHandler {

	static final String CHALLENGE = "Bearer realm=\"payonce\"";

	private final JsonMapper json;

	ProblemWriter(JsonMapper json) {
		this.json = json;
	}

	@Override
	public void commence(HttpServletRequest request, HttpServletResponse response,
			AuthenticationException authException) throws IOException {
		response.setHeader(HttpHeaders.WWW_AUTHENTICATE, CHALLENGE);
		write(request, response, 401, "unauthorized", "Unauthorized",
				"Send valid credentials as Authorization: Bearer <token>: an API key, or the admin token for the admin API.");
	}

	@Override
	public void handle(HttpServletRequest request, HttpServletResponse response,
			AccessDeniedException accessDeniedException) throws IOException {
		write(request, response, 403, "forbidden", "Forbidden", "These credentials may not use this endpoint.");
	}

	void write(HttpServletRequest request, HttpServletResponse response, int status, String slug, String title,
			String detail) throws IOException {
		Map<String, Object> problem = new LinkedHashMap<>();
		problem.put("type", ProblemTypes.of(slug).toString());
		problem.put("title", title);
		problem.put("status", status);
		problem.put("detail", detail);
		problem.put("instance", request.getRequestURI());
		response.setStatus(status);
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.getOutputStream().write(this.json.writeValueAsBytes(problem));
	}

}
