package io.payonce.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The entry point: one instance per base URI and API key, shared by all threads (it holds
 * one {@link HttpClient} and its connections).
 *
 * <pre>{@code
 * PayonceClient payonce = PayonceClient.builder(URI.create("https://payments.example.com"), apiKey).build();
 * IdempotencyKey key = IdempotencyKey.derived("checkout", order.id()); // or random(), stored with the order
 * switch (payonce.payments().create(key, PaymentRequest.of(order.id(), 1200, "ILS"))) {
 *     case PaymentOutcome.Approved approved -> fulfil(order, approved.payment());
 *     case PaymentOutcome.Declined declined -> askForAnotherCard(order, declined.declineCode());
 *     case PaymentOutcome.Failed failed -> askToPayAgain(order);
 *     case OutcomeUnknown unknown -> retryLater(order, unknown.key()); // the same key, never a new one
 * }
 * }</pre>
 *
 * <p>
 * Every request carries {@code Authorization: Bearer <API key>}; the API key never
 * appears in an exception message or an {@link Attempt}.
 */
public final class PayonceClient {

	private final Payments payments;

	private final Refunds refunds;

	private PayonceClient(Calls calls) {
		this.payments = new Payments(calls);
		this.refunds = new Refunds(calls);
	}

	/**
	 * A builder with the default {@link RetryPolicy}.
	 * @param baseUri where the service answers, such as
	 * {@code https://payments.example.com} (a path is kept: {@code https://host/payonce}
	 * sends to {@code /payonce/payments})
	 * @param apiKey the client's API key ({@code sk_test_…} or {@code sk_live_…})
	 * @return the builder
	 */
	public static Builder builder(URI baseUri, String apiKey) {
		return new Builder(baseUri, apiKey);
	}

	/**
	 * The payments API.
	 * @return payments
	 */
	public Payments payments() {
		return this.payments;
	}

	/**
	 * The refunds API.
	 * @return refunds
	 */
	public Refunds refunds() {
		return this.refunds;
	}

	/** Settings of a {@link PayonceClient}; every one has a safe default. */
	public static final class Builder {

		private final URI baseUri;

		private final String apiKey;

		private RetryPolicy retryPolicy = RetryPolicy.defaults();

		private AttemptListener attemptListener = AttemptListener.NONE;

		private Duration connectTimeout = Duration.ofSeconds(5);

		private HttpClient httpClient;

		private Builder(URI baseUri, String apiKey) {
			this.baseUri = Objects.requireNonNull(baseUri, "baseUri");
			this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
			if (apiKey.isBlank() || !apiKey.chars().allMatch((c) -> c > 0x20 && c < 0x7F)) {
				throw new IllegalArgumentException("An API key is visible ASCII without spaces");
			}
			if (!"http".equals(baseUri.getScheme()) && !"https".equals(baseUri.getScheme())) {
				throw new IllegalArgumentException("The base URI is http or https, got " + baseUri.getScheme());
			}
		}

		/**
		 * When and how calls retry (default {@link RetryPolicy#defaults()}).
		 * @param retryPolicy the policy
		 * @return this builder
		 */
		public Builder retryPolicy(RetryPolicy retryPolicy) {
			this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
			return this;
		}

		/**
		 * Told about every attempt (default: nobody).
		 * @param attemptListener the listener
		 * @return this builder
		 */
		public Builder attemptListener(AttemptListener attemptListener) {
			this.attemptListener = Objects.requireNonNull(attemptListener, "attemptListener");
			return this;
		}

		/**
		 * The longest wait for a TCP (and TLS) connection of the default HTTP client
		 * (default 5 s); ignored with {@link #httpClient(HttpClient)}. An attempt is
		 * bounded by its timeout in any case.
		 * @param connectTimeout positive
		 * @return this builder
		 */
		public Builder connectTimeout(Duration connectTimeout) {
			this.connectTimeout = Objects.requireNonNull(connectTimeout, "connectTimeout");
			return this;
		}

		/**
		 * The HTTP client to send with, for a proxy, TLS settings or an executor of the
		 * caller's (default: one of the library's, HTTP/1.1, since the service serves
		 * HTTP/1.1 only, following no redirects).
		 * @param httpClient the client
		 * @return this builder
		 */
		public Builder httpClient(HttpClient httpClient) {
			this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
			return this;
		}

		/**
		 * Builds the client.
		 * @return a thread-safe client
		 */
		public PayonceClient build() {
			HttpClient http = (this.httpClient != null) ? this.httpClient
					: HttpClient.newBuilder()
						.version(HttpClient.Version.HTTP_1_1)
						.connectTimeout(this.connectTimeout)
						.followRedirects(HttpClient.Redirect.NEVER)
						.build();
			Transport transport = new HttpTransport(http, HttpTransport.directory(this.baseUri), this.apiKey,
					"payonce-java/" + version());
			RetryLoop loop = new RetryLoop(transport, this.retryPolicy, this.attemptListener, System::nanoTime,
					RetryLoop.Sleeper.THREAD, Clock.systemUTC(), ThreadLocalRandom::current);
			return new PayonceClient(new Calls(loop));
		}

		private static String version() {
			String version = PayonceClient.class.getPackage().getImplementationVersion();
			return (version != null) ? version : "dev";
		}

	}

}
