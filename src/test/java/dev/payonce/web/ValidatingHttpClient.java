package dev.payonce.web;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * A JDK {@link HttpClient} that checks every exchange against the served OpenAPI document
 * ({@link OpenApiExchanges}) before handing the response to its caller: for clients that
 * build their own requests, such as the generated Java client ({@link #builder()} goes to
 * its {@code ApiClient.setHttpClientBuilder}). The response body is read whole, then
 * given to the caller's body handler.
 */
public final class ValidatingHttpClient extends HttpClient {

	private final HttpClient delegate;

	private ValidatingHttpClient(HttpClient delegate) {
		this.delegate = delegate;
	}

	/**
	 * A builder of checking clients.
	 * @return a builder whose clients check every exchange
	 */
	public static HttpClient.Builder builder() {
		return new Builder(HttpClient.newBuilder());
	}

	@Override
	public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
			throws IOException, InterruptedException {
		HttpResponse<byte[]> response = this.delegate.send(request, HttpResponse.BodyHandlers.ofByteArray());
		OpenApiExchanges.check(request, response.statusCode(), response.headers().map(),
				new String(response.body(), StandardCharsets.UTF_8));
		T body = read(handler, response);
		return new Checked<>(response, body);
	}

	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
		throw new UnsupportedOperationException("Only blocking calls are checked");
	}

	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
			HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
		throw new UnsupportedOperationException("Only blocking calls are checked");
	}

	private static <T> T read(HttpResponse.BodyHandler<T> handler, HttpResponse<byte[]> response) throws IOException {
		HttpResponse.BodySubscriber<T> subscriber = handler.apply(new HttpResponse.ResponseInfo() {

			@Override
			public int statusCode() {
				return response.statusCode();
			}

			@Override
			public HttpHeaders headers() {
				return response.headers();
			}

			@Override
			public Version version() {
				return response.version();
			}

		});
		subscriber.onSubscribe(new Flow.Subscription() {

			@Override
			public void request(long n) {
			}

			@Override
			public void cancel() {
			}

		});
		subscriber.onNext(List.of(ByteBuffer.wrap(response.body())));
		subscriber.onComplete();
		try {
			return subscriber.getBody().toCompletableFuture().get();
		}
		catch (ExecutionException | InterruptedException ex) {
			throw new IOException("Could not hand the response body over", ex);
		}
	}

	@Override
	public Optional<CookieHandler> cookieHandler() {
		return this.delegate.cookieHandler();
	}

	@Override
	public Optional<Duration> connectTimeout() {
		return this.delegate.connectTimeout();
	}

	@Override
	public Redirect followRedirects() {
		return this.delegate.followRedirects();
	}

	@Override
	public Optional<ProxySelector> proxy() {
		return this.delegate.proxy();
	}

	@Override
	public SSLContext sslContext() {
		return this.delegate.sslContext();
	}

	@Override
	public SSLParameters sslParameters() {
		return this.delegate.sslParameters();
	}

	@Override
	public Optional<Authenticator> authenticator() {
		return this.delegate.authenticator();
	}

	@Override
	public Version version() {
		return this.delegate.version();
	}

	@Override
	public Optional<Executor> executor() {
		return this.delegate.executor();
	}

	private record Checked<T>(HttpResponse<byte[]> response, T body) implements HttpResponse<T> {

		@Override
		public int statusCode() {
			return this.response.statusCode();
		}

		@Override
		public HttpRequest request() {
			return this.response.request();
		}

		@Override
		public Optional<HttpResponse<T>> previousResponse() {
			return Optional.empty();
		}

		@Override
		public HttpHeaders headers() {
			return this.response.headers();
		}

		@Override
		public Optional<SSLSession> sslSession() {
			return this.response.sslSession();
		}

		@Override
		public java.net.URI uri() {
			return this.response.uri();
		}

		@Override
		public Version version() {
			return this.response.version();
		}

	}

	private record Builder(HttpClient.Builder delegate) implements HttpClient.Builder {

		@Override
		public HttpClient.Builder cookieHandler(CookieHandler cookieHandler) {
			this.delegate.cookieHandler(cookieHandler);
			return this;
		}

		@Override
		public HttpClient.Builder connectTimeout(Duration duration) {
			this.delegate.connectTimeout(duration);
			return this;
		}

		@Override
		public HttpClient.Builder sslContext(SSLContext sslContext) {
			this.delegate.sslContext(sslContext);
			return this;
		}

		@Override
		public HttpClient.Builder sslParameters(SSLParameters sslParameters) {
			this.delegate.sslParameters(sslParameters);
			return this;
		}

		@Override
		public HttpClient.Builder executor(Executor executor) {
			this.delegate.executor(executor);
			return this;
		}

		@Override
		public HttpClient.Builder followRedirects(Redirect policy) {
			this.delegate.followRedirects(policy);
			return this;
		}

		@Override
		public HttpClient.Builder version(Version version) {
			this.delegate.version(version);
			return this;
		}

		@Override
		public HttpClient.Builder priority(int priority) {
			this.delegate.priority(priority);
			return this;
		}

		@Override
		public HttpClient.Builder proxy(ProxySelector proxySelector) {
			this.delegate.proxy(proxySelector);
			return this;
		}

		@Override
		public HttpClient.Builder authenticator(Authenticator authenticator) {
			this.delegate.authenticator(authenticator);
			return this;
		}

		@Override
		public HttpClient build() {
			return new ValidatingHttpClient(this.delegate.build());
		}

	}

}
