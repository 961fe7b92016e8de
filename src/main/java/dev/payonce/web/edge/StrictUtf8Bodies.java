package dev.payonce.web.edge;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

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

/**
 * Every request body Payonce reads is strict UTF-8 (RFC 8259 section 8.1, RFC 3629
 * section 3; docs/design.md section 2): the body stream is checked by a
 * {@link Utf8Validator} as it is read, whoever reads it (the payments and refunds
 * readers, Jackson for the admin API, the Stripe webhook), and the first ill-formed
 * sequence, or a sequence cut short by the end of the body, fails the read with
 * {@code 400 invalid-request}. Every handler reads its whole body before it acts, so
 * nothing has been claimed, charged or stored by then.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 2)
class StrictUtf8Bodies extends OncePerRequestFilter {

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		chain.doFilter(new HttpServletRequestWrapper(request) {

			private @Nullable ServletInputStream body;

			@Override
			public ServletInputStream getInputStream() throws IOException {
				if (this.body == null) {
					this.body = new ValidatingInputStream(super.getInputStream());
				}
				return this.body;
			}

			@Override
			public BufferedReader getReader() throws IOException {
				return new BufferedReader(new InputStreamReader(getInputStream(),
						StandardCharsets.UTF_8.newDecoder()
							.onMalformedInput(CodingErrorAction.REPORT)
							.onUnmappableCharacter(CodingErrorAction.REPORT)));
			}

		}, response);
	}

	/**
	 * {@code 400 invalid-request} for a body that is not UTF-8; says where, never what.
	 * @param offset the 1-based position of the refused byte, or of the end
	 */
	static ErrorResponseException notUtf8(long offset) {
		ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
				"The request body is not well-formed UTF-8 (RFC 8259 section 8.1); see errors.");
		problem.setProperty("errors", List.of(Map.of("field", "", "message",
				"is not well-formed UTF-8 (byte " + offset + "): overlong, surrogate, out of range or cut short")));
		return new ErrorResponseException(HttpStatus.BAD_REQUEST, problem, null);
	}

	/** The body stream, checked byte by byte as it is read. */
	private static final class ValidatingInputStream extends ForwardingServletInputStream {

		private final Utf8Validator validator = new Utf8Validator();

		ValidatingInputStream(ServletInputStream body) {
			super(body);
		}

		@Override
		public int read() throws IOException {
			int b = this.body.read();
			if (b == -1) {
				atEnd();
			}
			else if (!this.validator.accept((byte) b)) {
				throw notUtf8(this.validator.offset());
			}
			return b;
		}

		@Override
		public int read(byte[] buffer, int offset, int length) throws IOException {
			int n = this.body.read(buffer, offset, length);
			if (n == -1) {
				atEnd();
			}
			for (int i = 0; i < n; i++) {
				if (!this.validator.accept(buffer[offset + i])) {
					throw notUtf8(this.validator.offset());
				}
			}
			return n;
		}

		private void atEnd() {
			if (!this.validator.isComplete()) {
				throw notUtf8(this.validator.offset());
			}
		}

	}

}
