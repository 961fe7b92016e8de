package dev.payonce.event;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/events.md, "Addresses": the delivery checks the addresses again and connects only
 * to those it checked. Names resolve through a test resolver, never DNS; a recording
 * connector sees every set of addresses a connection was allowed to use, so a refused
 * address is proven never handed to a connection; the only server is on 127.0.0.1.
 */
class WebhookSenderTests {

	private final List<List<InetAddress>> connecting = new CopyOnWriteArrayList<>();

	private final AtomicInteger lookups = new AtomicInteger();

	private HttpServer server;

	private final List<String> paths = new CopyOnWriteArrayList<>();

	@BeforeEach
	void setUp() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.createContext("/", (exchange) -> {
			this.paths.add(exchange.getRequestURI().getPath());
			exchange.getRequestBody().readAllBytes();
			// No keep-alive: each send opens (and so resolves and checks) anew.
			exchange.getResponseHeaders().add("Connection", "close");
			if (exchange.getRequestURI().getPath().equals("/redirect")) {
				exchange.getResponseHeaders().add("Location", "http://127.0.0.1:" + port() + "/elsewhere");
				exchange.sendResponseHeaders(302, -1);
			}
			else {
				exchange.sendResponseHeaders(200, -1);
			}
			exchange.close();
		});
		this.server.start();
	}

	@AfterEach
	void tearDown() {
		this.server.stop(0);
	}

	@Test
	void refusedAddressesAreNeverHandedToAConnection() {
		WebhookSender sender = sender(false, (host) -> switch (host) {
			case "internal.example" -> List.of(InetAddress.getByName("10.0.0.5"));
			case "metadata.example" -> List.of(InetAddress.getByName("169.254.169.254"));
			default -> EndpointAddressesTests.resolve(host);
		});

		List<WebhookSender.Attempt> attempts = List.of(
				sender.send(URI.create("http://internal.example/hook"), Map.of(), "{}"),
				sender.send(URI.create("http://metadata.example/latest/meta-data"), Map.of(), "{}"),
				sender.send(URI.create("http://169.254.169.254/latest/meta-data"), Map.of(), "{}"),
				sender.send(URI.create("http://127.0.0.1:" + port() + "/hook"), Map.of(), "{}"));

		assertThat(attempts).allSatisfy((attempt) -> {
			assertThat(attempt.errorKind()).isEqualTo("refused_address");
			assertThat(attempt.status()).isNull();
		});
		assertThat(this.connecting).isEmpty();
		assertThat(this.paths).isEmpty();
	}

	@Test
	void aNameThatResolvesToARefusedAddressAtDeliveryIsRefusedThoughItPassedBefore() {
		// DNS rebinding: the first answer (at registration) is allowed, the next is not.
		WebhookSender sender = sender(true, (host) -> (this.lookups.incrementAndGet() == 1)
				? List.of(InetAddress.getByName("127.0.0.1")) : List.of(InetAddress.getByName("10.0.0.5")));
		EndpointAddresses registration = new EndpointAddresses((host) -> List.of(InetAddress.getByName("127.0.0.1")),
				true);
		assertThat(registration.check("rebind.example")).hasSize(1);

		WebhookSender.Attempt first = sender.send(URI.create("http://rebind.example:" + port() + "/hook"), Map.of(),
				"{}");
		WebhookSender.Attempt second = sender.send(URI.create("http://rebind.example:" + port() + "/hook2"), Map.of(),
				"{}");

		assertThat(first.delivered()).isTrue();
		assertThat(second.errorKind()).isEqualTo("refused_address");
		assertThat(this.connecting).singleElement()
			.satisfies((addresses) -> assertThat(addresses).extracting(InetAddress::getHostAddress)
				.containsExactly("127.0.0.1"));
		assertThat(this.paths).containsExactly("/hook");
	}

	@Test
	void aRedirectIsAFailedAttemptAndIsNotFollowed() {
		WebhookSender sender = sender(true, EndpointAddressesTests::resolve);

		WebhookSender.Attempt attempt = sender.send(URI.create("http://127.0.0.1:" + port() + "/redirect"), Map.of(),
				"{}");

		assertThat(attempt.status()).isEqualTo(302);
		assertThat(attempt.errorKind()).isEqualTo("redirect");
		assertThat(this.paths).containsExactly("/redirect");
	}

	private WebhookSender sender(boolean allowLoopback, HostResolver resolver) {
		EventProperties properties = new EventProperties(Duration.ofDays(30), true, Duration.ofSeconds(1), 20,
				Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofHours(1),
				Duration.ofDays(3), Duration.ofDays(5), Duration.ofHours(24), allowLoopback);
		return new WebhookSender(properties, new EndpointAddresses(resolver, allowLoopback), this.connecting::add);
	}

	private int port() {
		return this.server.getAddress().getPort();
	}

}
