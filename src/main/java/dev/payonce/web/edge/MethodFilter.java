package dev.payonce.web.edge;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.payonce.web.Problems;

/**
 * One answer to a method a path does not have, on every route (docs/design.md section 2,
 * "Methods"):
 * <ul>
 * <li>an extension method no route has ({@code PROPFIND}, {@code FOO}, {@code CONNECT})
 * is {@code 405 method-not-allowed} with the path's {@code Allow}, or {@code 404
 * not-found} on a path that names nothing, before credentials are looked at, as
 * {@code TRACE} is (Spring Security's firewall would otherwise call it a malformed
 * request, {@code 400});</li>
 * <li>every {@code Allow} header written behind this filter ({@code OPTIONS} answers,
 * Spring MVC's {@code 405}s) is put into the one form of {@link AllowedMethods}.</li>
 * </ul>
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class MethodFilter extends OncePerRequestFilter {

	private final AllowedMethods allowedMethods;

	MethodFilter(AllowedMethods allowedMethods) {
		this.allowedMethods = allowedMethods;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (!AllowedMethods.isStandard(request.getMethod())) {
			String allow = this.allowedMethods.header(request.getRequestURI());
			if (allow.isEmpty()) {
				Problems.write(request, response, Problems.forStatus(404));
				return;
			}
			response.setHeader(HttpHeaders.ALLOW, allow);
			Problems.write(request, response, Problems.forStatus(405));
			return;
		}
		chain.doFilter(request, new AllowNormalizing(response));
	}

	/** Writes every {@code Allow} header in the one form. */
	private static final class AllowNormalizing extends HttpServletResponseWrapper {

		AllowNormalizing(HttpServletResponse response) {
			super(response);
		}

		@Override
		public void setHeader(String name, String value) {
			super.setHeader(name, isAllow(name) ? AllowedMethods.normalize(value) : value);
		}

		@Override
		public void addHeader(String name, String value) {
			if (isAllow(name)) {
				String current = getHeader(name);
				super.setHeader(name, AllowedMethods.normalize((current != null) ? current + "," + value : value));
				return;
			}
			super.addHeader(name, value);
		}

		private static boolean isAllow(String name) {
			return HttpHeaders.ALLOW.equalsIgnoreCase(name);
		}

	}

}
