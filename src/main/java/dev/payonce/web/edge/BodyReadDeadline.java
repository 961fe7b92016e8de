package dev.payonce.web.edge;

import java.io.IOException;
import java.time.Duration;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.payonce.web.Problems;
import dev.payonce.web.WebProperties;

/**
 * Bounds how long a request body may take ({@link WebProperties#bodyReadTimeout()}, issue
 * 15, item 1): the clock starts when the request's headers have been read, and a read
 * that starts after the deadline fails with {@code 408 request-timeout}, whoever reads
 * the body (the payments API's reader or Jackson for the admin API). Nothing has been
 * claimed or written by then: every handler reads its body before it acts.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 2)
class BodyReadDeadline extends OncePerRequestFilter {

	private final Duration timeout;

	BodyReadDeadline(WebProperties properties) {
		this.timeout = properties.bodyReadTimeout();
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		long deadline = System.nanoTime() + this.timeout.toNanos();
		chain.doFilter(new HttpServletRequestWrapper(request) {

			private @Nullable ServletInputStream body;

			@Override
			public ServletInputStream getInputStream() throws IOException {
				if (this.body == null) {
					this.body = new DeadlineInputStream(super.getInputStream(), deadline,
							BodyReadDeadline.this.timeout);
				}
				return this.body;
			}

		}, response);
	}

	/** The body stream, refusing every read that starts after the deadline. */
	private static final class DeadlineInputStream extends ForwardingServletInputStream {

		private final long deadline;

		private final Duration timeout;

		private volatile boolean expired;

		DeadlineInputStream(ServletInputStream body, long deadline, Duration timeout) {
			super(body);
			this.deadline = deadline;
			this.timeout = timeout;
		}

		@Override
		public int read() throws IOException {
			checkDeadline();
			return this.body.read();
		}

		@Override
		public int read(byte[] buffer, int offset, int length) throws IOException {
			checkDeadline();
			return this.body.read(buffer, offset, length);
		}

		private void checkDeadline() {
			if (System.nanoTime() - this.deadline > 0 && !this.body.isFinished()) {
				this.expired = true;
				ProblemDetail problem = Problems.forStatus(408);
				problem.setDetail("The request body did not arrive within " + this.timeout.toMillis()
						+ " ms of its headers. Retrying with the same Idempotency-Key is safe.");
				throw new ErrorResponseException(HttpStatus.REQUEST_TIMEOUT, problem, null);
			}
		}

	}

}
