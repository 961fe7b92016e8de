package dev.payonce.payment.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.payonce.TestCredentials;
import dev.payonce.web.OpenApiExchanges;

/**
 * A real HTTP client for the payments API in tests: the JDK's {@link HttpClient} against
 * the server on its random port, so every request crosses Tomcat exactly as a client's
 * would. Every exchange is checked against the served OpenAPI document
 * ({@link OpenApiExchanges}).
 */
public final class PaymentsApi {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final URI base;

	private final String apiKey;

	/**
	 * A valid payment request body.
	 * @param orderId the client's order id
	 * @param amount minor units
	 * @param currency ISO 4217 code
	 * @return the JSON body
	 */
	public static String paymentBody(String orderId, long amount, String currency) {
		return """
				{"orderId":"%s","amount":%d,"currency":"%s"}""".formatted(orderId, amount, currency);
	}

	public PaymentsApi(int port) {
		this(port, TestCredentials.DEV_KEY);
	}

	public PaymentsApi(int port, String apiKey) {
		this.base = URI.create("http://localhost:" + port);
		this.apiKey = apiKey;
	}

	/** The same server, as another caller. */
	public PaymentsApi as(String apiKey) {
		return new PaymentsApi(this.base.getPort(), apiKey);
	}

	/** POST /payments with an Idempotency-Key and a JSON body. */
	public Reply pay(String key, String json) {
		return send(request("/payments").header("Idempotency-Key", key)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json)));
	}

	/** POST /payments/{id}/refunds with an Idempotency-Key and a JSON body. */
	public Reply refund(String paymentId, String key, String json) {
		return send(request("/payments/" + paymentId + "/refunds").header("Idempotency-Key", key)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json)));
	}

	/** POST /payments/{id}/captures with an Idempotency-Key and a JSON body. */
	public Reply capture(String paymentId, String key, String json) {
		return send(request("/payments/" + paymentId + "/captures").header("Idempotency-Key", key)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json)));
	}

	/** POST /payments/{id}/void with an Idempotency-Key and no body. */
	public Reply voidPayment(String paymentId, String key) {
		return send(request("/payments/" + paymentId + "/void").header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.noBody()));
	}

	/** A request shaped by the caller, sent with this client's API key. */
	public Reply send(HttpRequest.Builder builder) {
		return sendWithoutKey(builder.setHeader("Authorization", "Bearer " + this.apiKey));
	}

	/** A request shaped by the caller, with exactly the headers it set. */
	public Reply sendWithoutKey(HttpRequest.Builder builder) {
		HttpRequest request = builder.timeout(Duration.ofSeconds(30)).build();
		try {
			HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
			OpenApiExchanges.check(request, response);
			return new Reply(response);
		}
		catch (IOException ex) {
			// The cause in the message: a build's summary prints only the message.
			throw new IllegalStateException(
					"HTTP request failed: " + request.method() + " " + request.uri() + ": " + ex, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

	public HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(uri(path));
	}

	public URI uri(String path) {
		return this.base.resolve(path);
	}

	public Reply get(String path) {
		return send(request(path).GET());
	}

	/** One HTTP response. */
	public record Reply(HttpResponse<String> response) {

		public int status() {
			return this.response.statusCode();
		}

		public String body() {
			return this.response.body();
		}

		public Optional<String> header(String name) {
			return this.response.headers().firstValue(name);
		}

		public JsonNode json() {
			return JSON.readTree(body());
		}

		public String field(String name) {
			JsonNode node = json().get(name);
			return (node != null) ? node.asString() : "";
		}

		public String problemType() {
			return field("type");
		}

		/**
		 * The body with its {@code requestId} member's value replaced by
		 * {@code REQUEST_ID}: every answer names its own request, so two answers that
		 * must be alike are compared apart from it.
		 */
		public String bodyApartFromRequestId() {
			String requestId = field("requestId");
			return requestId.isEmpty() ? body() : body().replace(requestId, "REQUEST_ID");
		}

	}

}
