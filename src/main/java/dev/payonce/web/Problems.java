package dev.payonce.web;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

/**
 * The one factory of Payonce's RFC 9457 problem bodies. The controller advice, the stored
 * {@code 402} responses, the security entry point, access-denied and firewall handlers,
 * the filters in front of Spring MVC and Tomcat's error report all build their problems
 * here, so every answer has the same members in the same order and a new member is one
 * edit.
 *
 * <p>
 * A problem's {@code detail} is written for the client: it never carries an exception
 * message, a header value, a key or a body.
 *
 * <p>
 * Every problem written for a request names that request: a {@code requestId} member
 * ({@link RequestIds}) is added where a problem becomes a body ({@link #json},
 * {@link #write}, {@link #identified}). A stored problem (a {@code 402} replayed) keeps
 * the id of the request that completed it; the {@code Request-Id} header names the
 * current one (docs/design.md section 2).
 */
public final class Problems {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/**
	 * The longest client-chosen name (an unknown member, a JSON path) a problem's
	 * {@code errors} echo back, in UTF-16 characters (docs/api.md, problem
	 * {@code invalid-request}).
	 */
	public static final int MAX_ECHOED_NAME = 64;

	/** Seconds a client should wait after a database outage before retrying. */
	static final String DATABASE_RETRY_AFTER_SECONDS = "1";

	/**
	 * Payonce's own words for the statuses that frameworks (Spring MVC, Spring Security,
	 * Tomcat) raise by themselves, whose own details name internals.
	 */
	private static final Map<Integer, Text> STANDARD = Map.ofEntries(
			Map.entry(400, new Text("invalid-request", "Invalid request", "The request is malformed.")),
			Map.entry(401, new Text("unauthorized", "Unauthorized",
					"Send valid credentials as Authorization: Bearer <token>: an API key, or the admin token for the admin API.")),
			Map.entry(403, new Text("forbidden", "Forbidden", "These credentials may not use this endpoint.")),
			Map.entry(404, new Text("not-found", "Not found", "No such resource.")),
			Map.entry(405,
					new Text("method-not-allowed", "Method not allowed", "This resource does not support the method.")),
			Map.entry(406,
					new Text("not-acceptable", "Not acceptable",
							"This resource answers application/json or application/problem+json.")),
			Map.entry(408, new Text("request-timeout", "Request timeout",
					"The request body did not arrive in time. Retrying with the same Idempotency-Key is safe.")),
			Map.entry(413, new Text("payload-too-large", "Payload too large", "The request is too large.")),
			Map.entry(415,
					new Text("unsupported-media-type", "Unsupported media type",
							"Send the request body as application/json.")),
			Map.entry(417,
					new Text("expectation-failed", "Expectation failed",
							"The only expectation supported is Expect: 100-continue.")),
			Map.entry(500, new Text("internal-error", "Internal error", "An unexpected error occurred.")),
			Map.entry(501,
					new Text("not-implemented", "Not implemented",
							"The request uses a method or transfer coding this service does not implement; "
									+ "send the body with Content-Length or Transfer-Encoding: chunked.")),
			Map.entry(503, new Text("service-unavailable", "Service unavailable",
					"The service could not reach its database. Retrying with the same Idempotency-Key is safe.")),
			Map.entry(505, new Text("http-version-not-supported", "HTTP version not supported",
					"This service speaks HTTP/1.1 and HTTP/1.0.")));

	/**
	 * A client's member name or JSON path as a problem echoes it: whole when it has at
	 * most {@link #MAX_ECHOED_NAME} characters, otherwise its first
	 * {@code MAX_ECHOED_NAME} followed by {@code ...}. The cut never falls inside a
	 * surrogate pair (it then keeps one character fewer), so an emoji is never split into
	 * half a character that strict JSON parsers refuse.
	 * @param name the name as the client sent it
	 * @return the name to echo
	 */
	public static String echoed(String name) {
		if (name.length() <= MAX_ECHOED_NAME) {
			return name;
		}
		int end = MAX_ECHOED_NAME;
		if (Character.isHighSurrogate(name.charAt(end - 1)) && Character.isLowSurrogate(name.charAt(end))) {
			end--;
		}
		return name.substring(0, end) + "...";
	}

	private Problems() {
	}

	/**
	 * A Payonce problem.
	 * @param status the HTTP status
	 * @param slug the type's slug, see {@link ProblemTypes}
	 * @param title a short, stable summary
	 * @param detail this occurrence, for the client
	 * @return a new, mutable problem
	 */
	public static ProblemDetail of(HttpStatusCode status, String slug, String title, String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setType(ProblemTypes.of(slug));
		problem.setTitle(title);
		return problem;
	}

	/**
	 * The problem for a status raised outside Payonce's own code (a framework, Tomcat):
	 * the type docs/api.md lists for that status, or {@code http-<status>} for a status
	 * it does not list.
	 * @param status the HTTP status
	 * @return a new, mutable problem
	 */
	public static ProblemDetail forStatus(int status) {
		Text text = STANDARD.get(status);
		if (text == null) {
			return of(HttpStatusCode.valueOf(status), "http-" + status, "HTTP error " + status, "The request failed.");
		}
		return of(HttpStatusCode.valueOf(status), text.slug(), text.title(), text.detail());
	}

	/**
	 * Whether a problem still has the framework's placeholder type ({@code about:blank}
	 * or none), so that {@link #forStatus(int)} should replace it.
	 * @param problem a problem
	 * @return {@code true} if its type is not one of Payonce's
	 */
	public static boolean isUntyped(ProblemDetail problem) {
		return problem.getType() == null || URI.create("about:blank").equals(problem.getType());
	}

	/**
	 * {@code 400 invalid-request} for a request whose line or path the server refuses to
	 * interpret (for example a path parameter such as {@code ;x=1}, an encoded slash or
	 * {@code ..}).
	 * @return a new, mutable problem
	 */
	public static ProblemDetail rejectedRequest() {
		return of(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
				"The request line or a header is malformed.");
	}

	/**
	 * {@code 413 payload-too-large} for a body over the limit.
	 * @param limit the largest body accepted, in bytes
	 * @return a new, mutable problem
	 */
	public static ProblemDetail payloadTooLarge(long limit) {
		return of(HttpStatus.CONTENT_TOO_LARGE, "payload-too-large", "Payload too large",
				"The request body must be at most " + limit + " bytes.");
	}

	/**
	 * The members of a problem in RFC 9457 order ({@code type}, {@code title},
	 * {@code status}, {@code detail}, {@code instance}), followed by its extension
	 * members in the order they were added.
	 * @param problem a problem
	 * @return its members, absent ones left out
	 */
	public static Map<String, @Nullable Object> members(ProblemDetail problem) {
		Map<String, @Nullable Object> members = new LinkedHashMap<>();
		members.put("type", (problem.getType() != null) ? problem.getType().toString() : "about:blank");
		if (problem.getTitle() != null) {
			members.put("title", problem.getTitle());
		}
		members.put("status", problem.getStatus());
		if (problem.getDetail() != null) {
			members.put("detail", problem.getDetail());
		}
		if (problem.getInstance() != null) {
			members.put("instance", problem.getInstance().toString());
		}
		if (problem.getProperties() != null) {
			members.putAll(problem.getProperties());
		}
		return members;
	}

	/**
	 * A problem as {@code application/problem+json} text, {@link #identified identified}
	 * by the current request.
	 * @param problem a problem
	 * @return its JSON, members as {@link #members(ProblemDetail)} orders them
	 */
	public static String json(ProblemDetail problem) {
		return JSON.writeValueAsString(members(identified(problem)));
	}

	/**
	 * Adds the {@code requestId} member naming the request this thread is handling
	 * ({@link RequestIds#current()}), unless the problem names one already or no request
	 * is being handled (a reconciler's stored problem).
	 * @param problem a problem
	 * @return the same problem
	 */
	public static ProblemDetail identified(ProblemDetail problem) {
		String id = RequestIds.current();
		if (id != null && (problem.getProperties() == null || !problem.getProperties().containsKey(RequestIds.KEY))) {
			problem.setProperty(RequestIds.KEY, id);
		}
		return problem;
	}

	/**
	 * Writes a problem as the whole response, for code that runs outside Spring MVC
	 * (filters, security handlers). Does nothing if the response is already committed:
	 * then the client has an answer.
	 * @param request the request, whose path becomes the problem's {@code instance}
	 * unless it has one
	 * @param response the response
	 * @param problem the problem; its status becomes the response's
	 * @throws IOException if the client is gone
	 */
	public static void write(HttpServletRequest request, HttpServletResponse response, ProblemDetail problem)
			throws IOException {
		if (response.isCommitted()) {
			return;
		}
		at(problem, request.getRequestURI());
		response.setStatus(problem.getStatus());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		byte[] body = json(problem).getBytes(StandardCharsets.UTF_8);
		response.setContentLength(body.length);
		response.getOutputStream().write(body);
		response.flushBuffer();
	}

	/**
	 * Writes {@code 503 service-unavailable} with {@code Retry-After}: the database could
	 * not be reached or failed.
	 * @param request the request
	 * @param response the response
	 * @throws IOException if the client is gone
	 */
	public static void writeDatabaseUnavailable(HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		if (!response.isCommitted()) {
			response.setHeader(HttpHeaders.RETRY_AFTER, DATABASE_RETRY_AFTER_SECONDS);
		}
		write(request, response, forStatus(503));
	}

	/**
	 * Sets a problem's {@code instance} to the request path, unless it has one already or
	 * the path is not a valid URI reference (then the member is left out rather than
	 * repeat a refused path).
	 * @param problem a problem
	 * @param path the request path as sent (percent-encoded), or {@code null}
	 * @return the same problem
	 */
	public static ProblemDetail at(ProblemDetail problem, @Nullable String path) {
		if (problem.getInstance() == null && path != null && !path.isEmpty()) {
			try {
				problem.setInstance(URI.create(path));
			}
			catch (IllegalArgumentException ex) {
				// Not a URI reference: the problem goes out without an instance.
			}
		}
		return problem;
	}

	private record Text(String slug, String title, String detail) {
	}

}
