package dev.payonce.web.edge;

import java.io.IOException;
import java.util.Collections;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.payonce.web.Problems;

/**
 * Refuses, before anything is read, claimed or charged, a request whose answer the client
 * said it cannot read (docs/api.md, problem types, "406"):
 * <ul>
 * <li>an {@code Accept} header that does not parse is {@code 400 invalid-request}, on
 * every path;</li>
 * <li>on the API ({@code /payments}, {@code /admin}), an {@code Accept} header under
 * which {@code application/json} is not acceptable is {@code 406 not-acceptable}.</li>
 * </ul>
 * Acceptability follows RFC 9110 section 12.5.1: the most specific media range that
 * matches {@code application/json} ({@code application/json}, then {@code application/*},
 * then {@code *}{@code /*}) decides, and a quality of {@code 0} means "not acceptable".
 * Spring MVC's {@code produces} matching ignores {@code q=0}, which is why this check
 * runs here. Errors themselves are always {@code application/problem+json}.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 3)
class AcceptFilter extends OncePerRequestFilter {

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		List<String> values = Collections.list(request.getHeaders(HttpHeaders.ACCEPT));
		if (values.isEmpty()) {
			chain.doFilter(request, response);
			return;
		}
		List<MediaType> accepted;
		try {
			accepted = MediaType.parseMediaTypes(values);
		}
		catch (InvalidMediaTypeException ex) {
			Problems.write(request, response, Problems.of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
					"The Accept header is malformed."));
			return;
		}
		if (isApi(request.getRequestURI()) && !acceptsJson(accepted)) {
			Problems.write(request, response, Problems.forStatus(406));
			return;
		}
		chain.doFilter(request, response);
	}

	private static boolean isApi(String path) {
		return path.equals("/payments") || path.startsWith("/payments/") || path.startsWith("/admin/")
				|| path.equals("/admin");
	}

	/**
	 * Whether {@code application/json} is acceptable under these ranges.
	 * @param accepted the parsed {@code Accept} ranges; empty means anything
	 * @return {@code true} if the most specific matching range has a quality above 0
	 */
	static boolean acceptsJson(List<MediaType> accepted) {
		if (accepted.isEmpty()) {
			return true;
		}
		MediaType decisive = null;
		int specificity = -1;
		for (MediaType range : accepted) {
			int rank = rank(range);
			if (rank > specificity) {
				decisive = range;
				specificity = rank;
			}
		}
		return decisive != null && decisive.getQualityValue() > 0;
	}

	/** 2 for application/json, 1 for application/*, 0 for a wildcard, -1 for no match. */
	private static int rank(MediaType range) {
		if (range.isWildcardType()) {
			return 0;
		}
		if (!"application".equalsIgnoreCase(range.getType())) {
			return -1;
		}
		if (range.isWildcardSubtype() && range.getSubtypeSuffix() == null) {
			return 1;
		}
		return "json".equalsIgnoreCase(range.getSubtype()) ? 2 : -1;
	}

}
