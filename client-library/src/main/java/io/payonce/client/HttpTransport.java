package io.payonce.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@link Transport} over {@code java.net.http}. The timeout covers the whole answer,
 * body included: {@link HttpRequest.Builder#timeout} alone stops at the headers, so the
 * attempt also waits on the future with the timeout and cancels it, which closes the
 * connection.
 */
final class HttpTransport implements Transport {

	private final HttpClient http;

	private final URI baseUri;

	private final String authorization;

	private final String userAgent;

	HttpTransport(HttpClient http, URI baseUri, String apiKey, String userAgent) {
		this.http = http;
		this.baseUri = baseUri;
		this.authorization = "Bearer " + apiKey;
		this.userAgent = userAgent;
	}

	@Override
	public ApiResponse send(ApiRequest request, Duration timeout) throws IOException, InterruptedException {
		HttpRequest.Builder builder = HttpRequest.newBuilder(this.baseUri.resolve(request.pathAndQuery()))
			.timeout(timeout)
			.header("Authorization", this.authorization)
			.header("Accept", "application/json")
			.header("User-Agent", this.userAgent);
		if (request.key() != null) {
			builder.header("Idempotency-Key", request.key().headerValue());
		}
		if (request.body() != null) {
			builder.header("Content-Type", "application/json")
				.method(request.method(), HttpRequest.BodyPublishers.ofByteArray(request.body()));
		}
		else {
			builder.method(request.method(), HttpRequest.BodyPublishers.noBody());
		}
		CompletableFuture<HttpResponse<byte[]>> future = this.http.sendAsync(builder.build(),
				HttpResponse.BodyHandlers.ofByteArray());
		try {
			HttpResponse<byte[]> response = future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
			return new ApiResponse(response.statusCode(), response.headers(), response.body());
		}
		catch (TimeoutException ex) {
			future.cancel(true);
			throw new HttpTimeoutException("No whole answer within " + timeout);
		}
		catch (InterruptedException ex) {
			future.cancel(true);
			throw ex;
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof IOException io) {
				throw io;
			}
			throw new IOException("The request failed", ex.getCause());
		}
	}

	/** The base URI with a trailing slash, so that relative paths resolve below it. */
	static URI directory(URI baseUri) {
		String text = baseUri.toString();
		return text.endsWith("/") ? baseUri : URI.create(text + "/");
	}

}
