package dev.payonce.web.edge;

import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.server.PathContainer;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;

/**
 * The one rule for the {@code Allow} header (docs/design.md section 2, "Methods"): every
 * {@code 405} and every {@code OPTIONS} answer of a path names the same methods, in the
 * same order and spelling: the methods the path's handlers map, {@code HEAD} where
 * {@code GET} is mapped, and {@code OPTIONS}, ordered {@code GET, HEAD, POST, PUT, PATCH,
 * DELETE, OPTIONS} and joined by {@code ", "} (RFC 9110 section 10.2.1). A path no
 * handler maps has none, and is {@code 404}.
 */
@Component
public class AllowedMethods {

	/** The order in which methods are listed. */
	private static final List<RequestMethod> ORDER = List.of(RequestMethod.GET, RequestMethod.HEAD, RequestMethod.POST,
			RequestMethod.PUT, RequestMethod.PATCH, RequestMethod.DELETE, RequestMethod.OPTIONS, RequestMethod.TRACE);

	private final ObjectProvider<RequestMappingInfoHandlerMapping> mappings;

	AllowedMethods(ObjectProvider<RequestMappingInfoHandlerMapping> mappings) {
		this.mappings = mappings;
	}

	/**
	 * The methods a path has.
	 * @param path the request path, as sent (percent-encoded)
	 * @return the methods, in the listing order; empty if no handler maps the path
	 */
	public Set<RequestMethod> of(String path) {
		PathContainer container = PathContainer.parsePath(path);
		Set<RequestMethod> allowed = EnumSet.noneOf(RequestMethod.class);
		this.mappings.orderedStream()
			.flatMap((mapping) -> mapping.getHandlerMethods().keySet().stream())
			.filter((info) -> info.getPathPatternsCondition() != null && info.getPathPatternsCondition()
				.getPatterns()
				.stream()
				.anyMatch((pattern) -> pattern.matches(container)))
			.forEach((info) -> allowed.addAll(info.getMethodsCondition().getMethods()));
		return complete(allowed);
	}

	/**
	 * The {@code Allow} value of a path.
	 * @param path the request path
	 * @return the header value, empty if the path has no methods
	 */
	public String header(String path) {
		return format(of(path));
	}

	/**
	 * Puts a list of methods into the one form: with {@code HEAD} where {@code GET} is,
	 * {@code OPTIONS} if any, in the listing order.
	 * @param value an {@code Allow} value as a framework wrote it, for example
	 * {@code GET,POST}
	 * @return the value in the one form; unknown tokens are dropped
	 */
	static String normalize(String value) {
		Set<RequestMethod> methods = EnumSet.noneOf(RequestMethod.class);
		for (String token : value.split(",")) {
			RequestMethod method = RequestMethod.resolve(token.strip());
			if (method != null) {
				methods.add(method);
			}
		}
		return format(complete(methods));
	}

	private static Set<RequestMethod> complete(Set<RequestMethod> methods) {
		Set<RequestMethod> complete = new TreeSet<>(Comparator.comparingInt(ORDER::indexOf));
		complete.addAll(methods);
		complete.remove(RequestMethod.TRACE);
		if (complete.contains(RequestMethod.GET)) {
			complete.add(RequestMethod.HEAD);
		}
		if (!complete.isEmpty()) {
			complete.add(RequestMethod.OPTIONS);
		}
		return complete;
	}

	private static String format(Set<RequestMethod> methods) {
		return methods.stream().map(RequestMethod::name).collect(Collectors.joining(", "));
	}

	/**
	 * Whether a method is one Payonce's routes can have (RFC 9110 section 9), as opposed
	 * to an extension method (WebDAV's {@code PROPFIND}, a made-up {@code FOO}).
	 * @param method a request method
	 * @return {@code true} for GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS and TRACE
	 */
	static boolean isStandard(String method) {
		return RequestMethod.resolve(method) != null;
	}

}
