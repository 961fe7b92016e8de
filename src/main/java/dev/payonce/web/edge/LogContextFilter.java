package dev.payonce.web.edge;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.MDC;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.payonce.web.RequestIds;

/**
 * Gives every request its {@link RequestIds request id} before anything else runs (the
 * {@code Request-Id} response header and {@code requestId} in the log context, again on
 * the error dispatch that renders a {@code sendError}), and clears the log context
 * (request id, client id, payment id, idempotency-key digest) when the request ends, so
 * that nothing of one request's context reaches the next log line of its thread.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class LogContextFilter extends OncePerRequestFilter {

	@Override
	protected boolean shouldNotFilterErrorDispatch() {
		return false;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String id = RequestIds.of(request);
		MDC.put(RequestIds.KEY, id);
		if (!response.isCommitted()) {
			response.setHeader(RequestIds.HEADER, id);
		}
		try {
			chain.doFilter(request, response);
		}
		finally {
			MDC.clear();
		}
	}

}
