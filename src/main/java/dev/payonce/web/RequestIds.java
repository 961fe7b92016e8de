package dev.payonce.web;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Pattern;

import jakarta.servlet.ServletRequest;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

/**
 * Payonce's request ids (docs/design.md section 2, "Request-Id"): {@code req_} followed
 * by 22 base64url characters (128 random bits), made by Payonce for every request it
 * answers, sent back in the {@code Request-Id} response header (Stripe's name for it,
 * https://docs.stripe.com/api/request_ids), written into every log line of the request
 * ({@code requestId} in the log context) and named by every problem body
 * ({@code requestId} member). A {@code Request-Id} the client sends is never taken as
 * Payonce's: it is ignored.
 */
public final class RequestIds {

	/** The response header. */
	public static final String HEADER = "Request-Id";

	/** The log context key, and the problem member. */
	public static final String KEY = "requestId";

	/** The shape of an id: {@code req_} and 22 base64url characters. */
	public static final Pattern SHAPE = Pattern.compile("^req_[A-Za-z0-9_-]{22}$");

	/** The request attribute holding the id, so that an error dispatch keeps it. */
	static final String ATTRIBUTE = RequestIds.class.getName() + ".id";

	private static final SecureRandom RANDOM = new SecureRandom();

	private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

	private RequestIds() {
	}

	/**
	 * A new id.
	 * @return {@code req_} and 22 base64url characters
	 */
	static String next() {
		byte[] bytes = new byte[16];
		RANDOM.nextBytes(bytes);
		return "req_" + BASE64URL.encodeToString(bytes);
	}

	/**
	 * The id of a request, made and remembered on first use.
	 * @param request a request
	 * @return its id
	 */
	public static String of(ServletRequest request) {
		if (request.getAttribute(ATTRIBUTE) instanceof String id) {
			return id;
		}
		String id = next();
		request.setAttribute(ATTRIBUTE, id);
		return id;
	}

	/**
	 * The id of the request this thread is handling, if any.
	 * @return the id in the log context, or {@code null} outside a request
	 */
	public static @Nullable String current() {
		return MDC.get(KEY);
	}

}
