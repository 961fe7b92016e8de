package dev.payonce.web.edge;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.payonce.web.Problems;

/**
 * Refuses a request whose declared {@code Content-Length} exceeds {@link #MAX_BODY_BYTES}
 * with {@code 413 payload-too-large} before a byte of the body is read, and closes the
 * connection rather than wait for or drain the body. A chunked body (no declared length)
 * is counted while it is read by the endpoint that reads it.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 2)
public class BodySizeFilter extends OncePerRequestFilter {

	/** The largest request body accepted by any endpoint, in bytes (16 KiB). */
	public static final int MAX_BODY_BYTES = 16 * 1024;

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() > MAX_BODY_BYTES) {
			// Tomcat would otherwise read the unread body to keep the connection.
			response.setHeader(HttpHeaders.CONNECTION, "close");
			Problems.write(request, response, Problems.payloadTooLarge(MAX_BODY_BYTES));
			return;
		}
		chain.doFilter(request, response);
	}

}
