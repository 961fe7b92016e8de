package dev.payonce.client.security;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;

import dev.payonce.web.Problems;

/**
 * Answers authentication, authorisation and firewall refusals as RFC 9457 problems built
 * by {@link Problems}, before any controller runs: 401 {@code unauthorized} with
 * {@code WWW-Authenticate: Bearer} (RFC 6750), 403 {@code forbidden}, 400
 * {@code invalid-request} for a request line the firewall refuses (including a method it
 * does not know). The body never says which part of the credential was wrong, and nothing
 * logged quotes the request.
 */
final class ProblemWriter implements AuthenticationEntryPoint, AccessDeniedHandler, RequestRejectedHandler {

	private static final Logger log = LoggerFactory.getLogger(ProblemWriter.class);

	static final String CHALLENGE = "Bearer realm=\"payonce\"";

	@Override
	public void commence(HttpServletRequest request, HttpServletResponse response,
			AuthenticationException authException) throws IOException {
		response.setHeader(HttpHeaders.WWW_AUTHENTICATE, CHALLENGE);
		write(request, response, Problems.forStatus(401));
	}

	@Override
	public void handle(HttpServletRequest request, HttpServletResponse response,
			AccessDeniedException accessDeniedException) throws IOException {
		write(request, response, Problems.forStatus(403));
	}

	@Override
	public void handle(HttpServletRequest request, HttpServletResponse response,
			RequestRejectedException requestRejectedException) throws IOException {
		// The exception's message quotes the refused part of the request: never logged.
		log.debug("Request rejected by the firewall: {}", requestRejectedException.getClass().getSimpleName());
		response.setHeader(HttpHeaders.CONNECTION, "close");
		Problems.write(request, response, Problems.rejectedRequest());
	}

	private static void write(HttpServletRequest request, HttpServletResponse response, ProblemDetail problem)
			throws IOException {
		Problems.write(request, response, problem);
	}

}
