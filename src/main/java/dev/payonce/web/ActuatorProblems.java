package dev.payonce.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Gives the actuator's bodiless errors a problem body: an unknown health group
 * ({@code /actuator/health/nope}) or endpoint answers {@code 404} with nothing, and the
 * actuator commits that answer itself, before any error page could fill it. Actuator
 * answers are small, so they are held until the endpoint is done and a bodiless
 * {@code 4xx} or {@code 5xx} is replaced by the problem of its status.
 */
@Component
class ActuatorProblems extends OncePerRequestFilter {

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !request.getRequestURI().startsWith("/actuator/");
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		ContentCachingResponseWrapper held = new ContentCachingResponseWrapper(response);
		try {
			chain.doFilter(request, held);
		}
		finally {
			if (held.getStatus() >= 400 && held.getContentSize() == 0 && !response.isCommitted()) {
				Problems.write(request, response, Problems.forStatus(held.getStatus()));
			}
			else {
				held.copyBodyToResponse();
			}
		}
	}

}
