package dev.payonce.web.edge;

import java.io.IOException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.payonce.web.Problems;

/**
 * Refuses a malformed query string on every route, before anything reads a parameter
 * (docs/design.md section 2, "Query strings"): {@code 400 invalid-request}, with nothing
 * of the query in the answer or the log. Malformed is a {@code %} not followed by two hex
 * digits (RFC 3986 section 2.1), bytes that do not decode as well-formed UTF-8
 * ({@link Utf8Validator}), or a decoded control character (U+0000..U+001F,
 * U+007F..U+009F: a CR or LF would otherwise reach a plain-text log line as a line of its
 * own).
 *
 * <p>
 * Without this check Tomcat 11 throws its {@code InvalidParameterException} from the
 * first {@code getParameter} (the actuator reads parameters of every request), which
 * surfaced as a {@code 500} and an ERROR with a stack quoting the parameter.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 2)
public class QueryStringFilter extends OncePerRequestFilter {

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (!isWellFormed(request.getQueryString())) {
			Problems.write(request, response, malformed());
			return;
		}
		chain.doFilter(request, response);
	}

	/**
	 * The problem of a malformed query string, also for a malformed form body.
	 * @return {@code 400 invalid-request}
	 */
	public static ProblemDetail malformed() {
		return Problems.of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
				"The query string is malformed: use %XX escapes of well-formed UTF-8, without control characters.");
	}

	/**
	 * Whether a raw query string is well formed.
	 * @param query the query as sent, still percent-encoded; {@code null} if none
	 * @return {@code true} if every escape is complete, its bytes are UTF-8 and nothing
	 * decodes to a control character
	 */
	static boolean isWellFormed(@Nullable String query) {
		if (query == null || query.isEmpty()) {
			return true;
		}
		ByteArrayOutputStream decoded = new ByteArrayOutputStream(query.length());
		for (int i = 0; i < query.length(); i++) {
			char c = query.charAt(i);
			if (c == '%') {
				if (i + 2 >= query.length()) {
					return false;
				}
				int high = Character.digit(query.charAt(i + 1), 16);
				int low = Character.digit(query.charAt(i + 2), 16);
				if (high < 0 || low < 0) {
					return false;
				}
				decoded.write((high << 4) | low);
				i += 2;
			}
			else if (c > 0x7F) {
				// Tomcat refuses raw non-ASCII in the request target itself; a container
				// that passes it on gets the same answer here.
				return false;
			}
			else {
				decoded.write(c);
			}
		}
		byte[] bytes = decoded.toByteArray();
		if (!Utf8Validator.isWellFormed(bytes)) {
			return false;
		}
		return new String(bytes, StandardCharsets.UTF_8).codePoints().noneMatch(Character::isISOControl);
	}

}
