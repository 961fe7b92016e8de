package dev.payonce.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.payonce.web.edge.QueryStringFilter;

/**
 * Answers what fails in front of Spring MVC, where its advice cannot see: a database
 * failure in a filter (the API-key lookup of authentication) becomes
 * {@code 503 service-unavailable} with {@code Retry-After}, parameters Tomcat cannot
 * parse are {@code 400 invalid-request}, and a client that hangs up is dropped quietly.
 * Anything else passes on to Tomcat's error handling as a bug.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class FailureFilter extends OncePerRequestFilter {

	private static final Logger log = LoggerFactory.getLogger(FailureFilter.class);

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		try {
			chain.doFilter(request, response);
		}
		catch (ServletException | IOException | RuntimeException ex) {
			if (Failures.isDatabaseFailure(ex)) {
				Failures.logDatabaseFailure(log, ex);
				Problems.writeDatabaseUnavailable(request, response);
				return;
			}
			if (Failures.isMalformedParameters(ex)) {
				log.debug("Malformed request parameters: answered 400");
				Problems.write(request, response, QueryStringFilter.malformed());
				return;
			}
			if (Failures.isClientGone(ex)) {
				log.debug("Client went away while the request was handled: {}", ex.getClass().getSimpleName());
				return;
			}
			throw ex;
		}
	}

}
