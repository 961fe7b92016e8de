package dev.payonce.event.web;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.http.HttpRequest.BodyPublishers;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.event.HostResolver;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/events.md, "Endpoints" and "Addresses": registering, reading, disabling and
 * deleting endpoints over real HTTP; a URL whose host is or resolves to a loopback,
 * private, link-local or metadata address is refused at registration and nothing is
 * stored. Names resolve through a test resolver, never DNS; the dispatcher is off here
 * (the test default), and no URL stored by this class can lead outside 127.0.0.0/8.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import({ TestcontainersConfiguration.class, WebhookEndpointIntegrationTests.Names.class })
class WebhookEndpointIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Test
	void refusesUrlsThatResolveToRefusedAddressesAndStoresNothing() {
		PaymentsApi api = new PaymentsApi(this.port);
		long before = endpoints();

		Reply loopback = register(api, "http://127.0.0.1:8080/hook");
		Reply metadata = register(api, "http://169.254.169.254/latest/meta-data");
		Reply named = register(api, "https://internal.example/hook");
		Reply v6 = register(api, "http://[fd00:ec2::254]/hook");
		Reply unresolvable = register(api, "https://nowhere.example/hook");

		assertThat(List.of(loopback, metadata, named, v6, unresolvable)).allSatisfy((reply) -> {
			assertThat(reply.status()).isEqualTo(400);
			assertThat(reply.problemType()).endsWith("/webhook-url-refused");
		});
		assertThat(loopback.field("addressKind")).isEqualTo("loopback");
		assertThat(metadata.field("addressKind")).isEqualTo("link_local");
		assertThat(named.field("addressKind")).isEqualTo("private");
		assertThat(v6.field("addressKind")).isEqualTo("private");
		assertThat(unresolvable.field("addressKind")).isEqualTo("unresolvable");
		assertThat(endpoints()).isEqualTo(before);
	}

	@Test
	void refusesMalformedUrlsAndUnknownEventTypes() {
		PaymentsApi api = new PaymentsApi(this.port);

		Reply relative = register(api, "/hook");
		Reply ftp = register(api, "ftp://shop.example/hook");
		Reply userInfo = register(api, "https://user:pw@shop.example/hook");
		Reply unknownType = api.send(api.request("/webhook-endpoints")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers
				.ofString("{\"url\":\"https://shop.example/hook\",\"eventTypes\":[\"payment.maybe\"]}")));

		assertThat(List.of(relative, ftp, userInfo, unknownType)).allSatisfy((reply) -> {
			assertThat(reply.status()).isEqualTo(400);
			assertThat(reply.problemType()).endsWith("/invalid-request");
		});
	}

	@Test
	void anEndpointIsTheClientsOwnAndCanBeDisabledEnabledAndDeleted() {
		PaymentsApi api = new PaymentsApi(this.port);
		Reply created = register(api, "https://shop.example/hook-" + UUID.randomUUID());
		String id = created.field("id");

		Reply read = api.get("/webhook-endpoints/" + id);
		Reply disabled = api.send(api.request("/webhook-endpoints/" + id + "/disable").POST(BodyPublishers.noBody()));
		Reply enabled = api.send(api.request("/webhook-endpoints/" + id + "/enable").POST(BodyPublishers.noBody()));
		Reply deleted = api.send(api.request("/webhook-endpoints/" + id).DELETE());
		Reply gone = api.get("/webhook-endpoints/" + id);

		assertThat(created.status()).isEqualTo(201);
		assertThat(created.field("secret")).startsWith("whsec_");
		assertThat(read.status()).isEqualTo(200);
		assertThat(read.json().has("secret")).as("the secret is shown only when created or rotated").isFalse();
		assertThat(disabled.field("status")).isEqualTo("DISABLED");
		assertThat(disabled.field("disabledReason")).isEqualTo("client");
		assertThat(enabled.field("status")).isEqualTo("ENABLED");
		assertThat(deleted.status()).isEqualTo(200);
		assertThat(deleted.field("id")).isEqualTo(id);
		assertThat(gone.status()).isEqualTo(404);
		assertThat(gone.problemType()).endsWith("/webhook-endpoint-not-found");
	}

	private static Reply register(PaymentsApi api, String url) {
		return api.send(api.request("/webhook-endpoints")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"url\":\"" + url + "\",\"eventTypes\":[\"payment.succeeded\"]}")));
	}

	private long endpoints() {
		return this.jdbc.sql("SELECT count(*) FROM webhook_endpoints").query(Long.class).single();
	}

	/** Names resolved without DNS: shop.example is public, internal.example private. */
	@TestConfiguration(proxyBeanMethods = false)
	static class Names {

		@Bean
		HostResolver testHostResolver() {
			return (host) -> switch (host) {
				case "shop.example" -> List.of(InetAddress.getByName("93.184.216.34"));
				case "internal.example" -> List.of(InetAddress.getByName("10.0.0.5"));
				default -> {
					if (!host.matches("[0-9.]+|\\[?[0-9a-fA-F:.]*:[0-9a-fA-F:.]*\\]?")) {
						throw new UnknownHostException(host);
					}
					yield List.of(InetAddress.getByName(host));
				}
			};
		}

	}

}
