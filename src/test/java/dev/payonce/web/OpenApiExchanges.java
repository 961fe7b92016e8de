package dev.payonce.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleRequest;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.ValidationReport;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks every HTTP exchange of the integration tests against the OpenAPI document the
 * server under test serves ({@code /v3/api-docs}), with Atlassian's
 * swagger-request-validator. A response the document does not describe (an undocumented
 * status, a body that breaks its schema, a missing required header, another media type)
 * is a finding; so is a request the document forbids that the service accepted (2xx). A
 * request the document forbids that the service refused (4xx or 5xx) is what a test of
 * bad input means to send, and is not. An exchange with a path or method the document has
 * no operation for must be answered with an RFC 9457 problem of its own status.
 * Operational endpoints ({@code /actuator}, {@code /v3/api-docs}, {@code /swagger-ui},
 * {@code /bench}) are not part of the API and are not checked.
 *
 * <p>
 * A finding fails the calling test at once, and {@link OpenApiFindingsCheck} fails the
 * test after it too, in case a worker thread swallowed the error. With the environment
 * variable {@code PAYONCE_OPENAPI_VALIDATION=report}, findings are appended to
 * {@code target/openapi-findings.txt} instead (to measure a document, not to test it).
 */
public final class OpenApiExchanges {

	private static final boolean REPORT_ONLY = "report".equals(System.getenv("PAYONCE_OPENAPI_VALIDATION"));

	private static final List<String> UNCHECKED = List.of("/actuator", "/v3/api-docs", "/swagger-ui", "/bench");

	private static final Map<String, OpenApiInteractionValidator> VALIDATORS = new ConcurrentHashMap<>();

	private static final Queue<String> FINDINGS = new ConcurrentLinkedQueue<>();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private OpenApiExchanges() {
	}

	/**
	 * Checks one exchange sent with the JDK's HTTP client.
	 * @param request the request as sent
	 * @param response its response, with the body read as text
	 */
	public static void check(HttpRequest request, HttpResponse<String> response) {
		check(request, response.statusCode(), response.headers().map(), response.body());
	}

	/**
	 * Checks one exchange sent with the JDK's HTTP client.
	 * @param request the request as sent
	 * @param status the response's status
	 * @param headers the response's headers
	 * @param body the response's body as text
	 */
	public static void check(HttpRequest request, int status, Map<String, List<String>> headers, String body) {
		URI uri = request.uri();
		check(new Exchange(uri.getScheme() + "://" + uri.getAuthority(), request.method(), uri.getRawPath(),
				uri.getRawQuery(), request.headers().map(), body(request), status, headers, body));
	}

	/**
	 * Checks one exchange written and read over a raw socket.
	 * @param base the server's base URI, for example {@code http://localhost:8080}
	 * @param method the request method
	 * @param path the request path
	 * @param requestHeaders the request's headers
	 * @param requestBody the request's body, {@code ""} for none
	 * @param rawResponse the whole response as read, ISO-8859-1 text
	 */
	public static void checkRaw(String base, String method, String path, Map<String, List<String>> requestHeaders,
			String requestBody, String rawResponse) {
		// An interim 1xx answer (100 Continue) precedes the final one: check the final
		// one.
		String response = rawResponse;
		while (response.matches("(?s)HTTP/1\\.1 1\\d\\d.*") && response.contains("\r\n\r\n")) {
			response = response.substring(response.indexOf("\r\n\r\n") + 4);
		}
		int headerEnd = response.indexOf("\r\n\r\n");
		String head = (headerEnd >= 0) ? response.substring(0, headerEnd) : response;
		String body = (headerEnd >= 0) ? response.substring(headerEnd + 4) : "";
		String[] lines = head.split("\r\n");
		int status = Integer.parseInt(lines[0].split(" ")[1]);
		Map<String, List<String>> headers = new java.util.LinkedHashMap<>();
		for (int i = 1; i < lines.length; i++) {
			int colon = lines[i].indexOf(':');
			headers.computeIfAbsent(lines[i].substring(0, colon).trim(), (name) -> new ArrayList<>())
				.add(lines[i].substring(colon + 1).trim());
		}
		boolean chunked = headers.entrySet()
			.stream()
			.anyMatch((e) -> e.getKey().equalsIgnoreCase("Transfer-Encoding") && e.getValue().contains("chunked"));
		check(new Exchange(base, method, path, null, requestHeaders, requestBody, status, headers,
				chunked ? unchunk(body) : body));
	}

	/**
	 * Checks one exchange of raw bytes, as a raw-socket test wrote and read it. An empty
	 * answer (the server stayed silent or hung up) has nothing to check.
	 * @param port the server's port on {@code localhost}
	 * @param request the request's bytes
	 * @param rawResponse the response as read, ISO-8859-1 text
	 */
	public static void checkRaw(int port, byte[] request, String rawResponse) {
		if (!rawResponse.startsWith("HTTP/")) {
			return;
		}
		String text = new String(request, StandardCharsets.ISO_8859_1);
		int headerEnd = text.indexOf("\r\n\r\n");
		String[] lines = ((headerEnd >= 0) ? text.substring(0, headerEnd) : text).split("\r\n");
		String[] requestLine = lines[0].split(" ");
		String target = (requestLine.length > 1) ? requestLine[1] : "/";
		int query = target.indexOf('?');
		Map<String, List<String>> headers = new java.util.LinkedHashMap<>();
		for (int i = 1; i < lines.length; i++) {
			int colon = lines[i].indexOf(':');
			if (colon > 0) {
				headers.computeIfAbsent(lines[i].substring(0, colon).trim(), (name) -> new ArrayList<>())
					.add(lines[i].substring(colon + 1).trim());
			}
		}
		checkRaw("http://localhost:" + port, requestLine[0], (query >= 0) ? target.substring(0, query) : target,
				headers, (headerEnd >= 0) ? text.substring(headerEnd + 4) : "", rawResponse);
	}

	/**
	 * Takes the findings recorded since the last call.
	 * @return findings, one line each
	 */
	static List<String> drainFindings() {
		List<String> drained = new ArrayList<>();
		String finding;
		while ((finding = FINDINGS.poll()) != null) {
			drained.add(finding);
		}
		return drained;
	}

	private static void check(Exchange exchange) {
		if (UNCHECKED.stream().anyMatch(exchange.path()::startsWith)) {
			return;
		}
		List<String> findings = findings(exchange);
		if (findings.isEmpty()) {
			return;
		}
		String summary = exchange.method() + " " + exchange.path() + " -> " + exchange.status() + ": "
				+ String.join("; ", findings);
		if (REPORT_ONLY) {
			report(summary);
			return;
		}
		FINDINGS.add(summary);
		throw new AssertionError("The OpenAPI document does not describe this exchange: " + summary);
	}

	private static List<String> findings(Exchange exchange) {
		return findings(VALIDATORS.computeIfAbsent(exchange.base(), OpenApiExchanges::validator), exchange);
	}

	/**
	 * What the document does not describe of one exchange.
	 * @param validator the document's validator
	 * @param exchange the exchange
	 * @return findings, empty when the document describes the exchange
	 */
	static List<String> findings(OpenApiInteractionValidator validator, Exchange exchange) {
		if (Arrays.stream(Request.Method.values()).noneMatch((method) -> method.name().equals(exchange.method()))) {
			// A method OpenAPI cannot name (FOO): no operation can have it.
			return undocumentedOperation(exchange);
		}
		SimpleRequest.Builder request = new SimpleRequest.Builder(exchange.method(), exchange.path());
		exchange.requestHeaders().forEach(request::withHeader);
		if (!exchange.requestBody().isEmpty()) {
			request.withBody(exchange.requestBody());
		}
		if (exchange.query() != null) {
			for (String pair : exchange.query().split("&")) {
				String[] parts = pair.split("=", 2);
				request.withQueryParam(parts[0], (parts.length > 1) ? parts[1] : "");
			}
		}
		ValidationReport requestReport = validator.validateRequest(request.build());
		if (requestReport.getMessages()
			.stream()
			.anyMatch((message) -> message.getKey().equals("validation.request.path.missing")
					|| message.getKey().equals("validation.request.operation.notAllowed"))) {
			return undocumentedOperation(exchange);
		}
		SimpleResponse.Builder response = SimpleResponse.Builder.status(exchange.status());
		exchange.responseHeaders().forEach(response::withHeader);
		if (!exchange.responseBody().isEmpty()) {
			response.withBody(exchange.responseBody());
		}
		List<String> findings = new ArrayList<>(messages(validator.validateResponse(exchange.path(),
				Request.Method.valueOf(exchange.method()), response.build())));
		if (exchange.status() < 400) {
			messages(requestReport)
				.forEach((message) -> findings.add("accepted a request the document forbids: " + message));
		}
		return findings;
	}

	private static List<String> undocumentedOperation(Exchange exchange) {
		List<String> findings = new ArrayList<>();
		if (exchange.status() < 400) {
			findings.add("answered " + exchange.status() + " where the document has no operation");
			return findings;
		}
		Optional<String> type = exchange.responseHeaders()
			.entrySet()
			.stream()
			.filter((e) -> e.getKey().equalsIgnoreCase("Content-Type"))
			.flatMap((e) -> e.getValue().stream())
			.findFirst();
		if (type.isEmpty() || !type.get().startsWith("application/problem+json")) {
			findings.add("no operation, and the answer is not application/problem+json but " + type.orElse("none"));
			return findings;
		}
		JsonNode problem = JSON.readTree(exchange.responseBody());
		if (!problem.path("type").asString("").startsWith(ProblemTypes.BASE) || problem.path("title").isMissingNode()
				|| problem.path("status").asInt() != exchange.status()) {
			findings.add("no operation, and the answer is not a Payonce problem of its status");
		}
		return findings;
	}

	private static List<String> messages(ValidationReport report) {
		return report.getMessages()
			.stream()
			.filter((message) -> message.getLevel() == ValidationReport.Level.ERROR)
			.map((message) -> message.getKey() + " " + message.getMessage()
					+ message.getNestedMessages()
						.stream()
						.map((nested) -> " / " + nested.getMessage())
						.collect(Collectors.joining()))
			.toList();
	}

	private static OpenApiInteractionValidator validator(String base) {
		try {
			HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
			HttpResponse<String> document = http.send(
					HttpRequest.newBuilder(URI.create(base + "/v3/api-docs")).timeout(Duration.ofSeconds(30)).build(),
					HttpResponse.BodyHandlers.ofString());
			if (document.statusCode() != 200) {
				throw new IllegalStateException("No OpenAPI document at " + base + ": " + document.statusCode());
			}
			return OpenApiInteractionValidator.createForInlineApiSpecification(document.body()).build();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not read the OpenAPI document", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

	private static String body(HttpRequest request) {
		Optional<HttpRequest.BodyPublisher> publisher = request.bodyPublisher();
		if (publisher.isEmpty() || publisher.get().contentLength() == 0) {
			return "";
		}
		CompletableFuture<byte[]> bytes = new CompletableFuture<>();
		publisher.get().subscribe(new Flow.Subscriber<>() {

			private final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();

			@Override
			public void onSubscribe(Flow.Subscription subscription) {
				subscription.request(Long.MAX_VALUE);
			}

			@Override
			public void onNext(ByteBuffer item) {
				byte[] chunk = new byte[item.remaining()];
				item.get(chunk);
				this.out.writeBytes(chunk);
			}

			@Override
			public void onError(Throwable throwable) {
				bytes.completeExceptionally(throwable);
			}

			@Override
			public void onComplete() {
				bytes.complete(this.out.toByteArray());
			}

		});
		try {
			return new String(bytes.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not read back the request body", ex);
		}
	}

	private static String unchunk(String body) {
		StringBuilder out = new StringBuilder();
		int at = 0;
		while (at < body.length()) {
			int lineEnd = body.indexOf("\r\n", at);
			if (lineEnd < 0) {
				break;
			}
			int size = Integer.parseInt(body.substring(at, lineEnd).split(";")[0].trim(), 16);
			if (size == 0) {
				break;
			}
			out.append(body, lineEnd + 2, lineEnd + 2 + size);
			at = lineEnd + 2 + size + 2;
		}
		return out.toString();
	}

	private static synchronized void report(String finding) {
		try {
			Files.writeString(Path.of("target", "openapi-findings.txt"), finding + System.lineSeparator(),
					StandardOpenOption.CREATE, StandardOpenOption.APPEND);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not write the findings", ex);
		}
	}

	/** One request and its response, as the validator sees them. */
	record Exchange(String base, String method, String path, @Nullable String query,
			Map<String, List<String>> requestHeaders, String requestBody, int status,
			Map<String, List<String>> responseHeaders, String responseBody) {

	}

}
