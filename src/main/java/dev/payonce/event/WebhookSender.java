package dev.payonce.event;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.HttpHostConnectException;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * POSTs one signed event to an endpoint (docs/events.md, "Delivery") with Apache
 * HttpClient 5: short connect and response timeouts, no redirect followed (a 3xx is a
 * failed attempt), no cookies, no retries of its own, and a DNS resolver that checks
 * every address of the host ({@link EndpointAddresses}) and hands the connection only the
 * addresses it checked, so a name that resolves differently at connection time (DNS
 * rebinding) cannot reach a refused address; a pooled connection, opened to a checked
 * address, lives at most a minute. Thread-safe.
 */
final class WebhookSender implements AutoCloseable {

	/** The most of an answer's body read (and discarded) to reuse the connection. */
	private static final int DRAINED = 4096;

	private final CloseableHttpClient http;

	WebhookSender(EventProperties properties, EndpointAddresses addresses, Consumer<List<InetAddress>> connecting) {
		DnsResolver resolver = new DnsResolver() {
			@Override
			public InetAddress[] resolve(String host) throws UnknownHostException {
				List<InetAddress> checked;
				try {
					checked = addresses.check(host);
				}
				catch (EndpointAddresses.Refused ex) {
					throw new RefusedHost(ex.reason());
				}
				connecting.accept(checked);
				return checked.toArray(InetAddress[]::new);
			}

			@Override
			public String resolveCanonicalHostname(String host) {
				return host;
			}
		};
		this.http = HttpClients.custom()
			.setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
				.setDnsResolver(resolver)
				.setDefaultConnectionConfig(ConnectionConfig.custom()
					.setConnectTimeout(Timeout.of(properties.connectTimeout()))
					.setSocketTimeout(Timeout.of(properties.responseTimeout()))
					// A pooled connection goes to an address checked when it opened; none
					// lives long, so a host's addresses are checked again at least every
					// minute.
					.setTimeToLive(TimeValue.ofMinutes(1))
					.build())
				.setMaxConnTotal(50)
				.setMaxConnPerRoute(5)
				.build())
			.setDefaultRequestConfig(RequestConfig.custom()
				.setRedirectsEnabled(false)
				.setResponseTimeout(Timeout.of(properties.responseTimeout()))
				.build())
			.disableRedirectHandling()
			.disableAutomaticRetries()
			.disableCookieManagement()
			.disableAuthCaching()
			.setUserAgent("Payonce-Webhooks/1")
			.build();
	}

	/**
	 * Sends one attempt.
	 * @param url the endpoint
	 * @param headers the Standard Webhooks headers
	 * @param body the signed body
	 * @return the attempt's outcome; never throws for a failure of the endpoint
	 */
	Attempt send(URI url, Map<String, String> headers, String body) {
		HttpPost post = new HttpPost(url);
		headers.forEach(post::setHeader);
		post.setEntity(new StringEntity(body, ContentType.APPLICATION_JSON.withCharset(StandardCharsets.UTF_8)));
		long started = System.nanoTime();
		try {
			return this.http.execute(post, (response) -> {
				if (response.getEntity() != null) {
					// A 204 has none.
					EntityUtils.toByteArray(response.getEntity(), DRAINED);
				}
				int status = response.getCode();
				return new Attempt(status, millisSince(started), (status >= 200 && status < 300) ? null
						: (status >= 300 && status < 400) ? "redirect" : "status");
			});
		}
		catch (RefusedHost ex) {
			return new Attempt(null, millisSince(started), "refused_address");
		}
		catch (ConnectTimeoutException ex) {
			return new Attempt(null, millisSince(started), "connect_timeout");
		}
		catch (InterruptedIOException ex) {
			return new Attempt(null, millisSince(started), "timeout");
		}
		catch (HttpHostConnectException ex) {
			return new Attempt(null, millisSince(started), "connect_refused");
		}
		catch (UnknownHostException ex) {
			return new Attempt(null, millisSince(started), "unresolvable");
		}
		catch (IOException ex) {
			return new Attempt(null, millisSince(started), "io");
		}
	}

	private static long millisSince(long started) {
		return (System.nanoTime() - started) / 1_000_000;
	}

	@Override
	public void close() throws IOException {
		this.http.close();
	}

	/**
	 * One attempt's outcome.
	 *
	 * @param status the answer's HTTP status; {@code null} if none came
	 * @param latencyMillis how long the attempt took
	 * @param errorKind {@code null} if delivered (2xx); otherwise {@code status},
	 * {@code redirect}, {@code timeout}, {@code connect_timeout},
	 * {@code connect_refused}, {@code refused_address}, {@code unresolvable} or
	 * {@code io}
	 */
	record Attempt(@Nullable Integer status, long latencyMillis, @Nullable String errorKind) {

		boolean delivered() {
			return this.errorKind == null;
		}

	}

	/** The resolver's refusal, told apart from a host that does not resolve. */
	private static final class RefusedHost extends UnknownHostException {

		RefusedHost(String reason) {
			super("refused: " + reason);
		}

	}

}
