package dev.payonce.event.web;

import java.net.http.HttpRequest.BodyPublishers;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

import dev.payonce.TestCredentials;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/events.md, "The feed": a client's events newest first, paged by cursor, filtered
 * by type and by "not yet delivered", one by id, and a redelivery; a client never sees
 * another's. Real HTTP, real PostgreSQL; the dispatcher is off (the test default).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class EventFeedIntegrationTests {

	@LocalServerPort
	int port;

	@Test
	void pagesNewestFirstFiltersByTypeAndShowsOnlyTheClientsOwnEvents() {
		PaymentsApi client = newClient();
		List<String> payments = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			payments.add(client
				.pay("k-" + UUID.randomUUID(), PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 1000 + i, "ILS"))
				.field("id"));
		}
		Reply declined = client.pay("k-" + UUID.randomUUID(), """
				{"orderId":"order-%s","amount":1300,"currency":"ILS","paymentMethod":"pm_card_chargeDeclined"}"""
			.formatted(UUID.randomUUID()));

		Reply first = client.get("/events?limit=2");
		String cursor = first.json().path("data").get(1).path("id").asString();
		Reply second = client.get("/events?limit=2&starting_after=" + cursor);
		Reply succeeded = client.get("/events?type=payment.succeeded");
		Reply undelivered = client.get("/events?undelivered=true");
		Reply other = newClient().get("/events");

		assertThat(first.status()).isEqualTo(200);
		assertThat(resources(first)).containsExactly(declined.field("paymentId"), payments.get(2));
		assertThat(first.json().path("hasMore").asBoolean()).isTrue();
		assertThat(resources(second)).containsExactly(payments.get(1), payments.get(0));
		assertThat(second.json().path("hasMore").asBoolean()).isFalse();
		assertThat(resources(succeeded)).containsExactly(payments.get(2), payments.get(1), payments.get(0));
		assertThat(resources(undelivered)).as("no instance dispatched them").hasSize(4);
		assertThat(other.json().path("data").size()).isZero();
	}

	@Test
	void readsOneEventRedeliversItAndRefusesUnknownIdsAndBadParameters() {
		PaymentsApi client = newClient();
		String paymentId = client
			.pay("k-" + UUID.randomUUID(), PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 700, "ILS"))
			.field("id");
		String eventId = client.get("/events").json().path("data").get(0).path("id").asString();

		Reply one = client.get("/events/" + eventId);
		Reply redelivered = client
			.send(client.request("/events/" + eventId + "/redeliver").POST(BodyPublishers.noBody()));
		Reply unknown = client.get("/events/" + UUID.randomUUID());
		Reply othersEvent = newClient().get("/events/" + eventId);
		Reply badLimit = client.get("/events?limit=101");
		Reply badType = client.get("/events?type=payment.maybe");
		Reply badCursor = client.get("/events?starting_after=" + UUID.randomUUID());

		assertThat(one.status()).isEqualTo(200);
		assertThat(one.field("type")).isEqualTo("payment.succeeded");
		assertThat(one.json().path("data").path("id").asString()).isEqualTo(paymentId);
		assertThat(redelivered.status()).isEqualTo(202);
		assertThat(redelivered.json().path("deliveries").asInt()).as("the client has no endpoint").isZero();
		assertThat(List.of(unknown, othersEvent)).allSatisfy((reply) -> {
			assertThat(reply.status()).isEqualTo(404);
			assertThat(reply.problemType()).endsWith("/event-not-found");
		});
		assertThat(List.of(badLimit, badType, badCursor)).allSatisfy((reply) -> {
			assertThat(reply.status()).isEqualTo(400);
			assertThat(reply.problemType()).endsWith("/invalid-request");
		});
	}

	private PaymentsApi newClient() {
		Reply created = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN).send(new PaymentsApi(this.port)
			.request("/admin/clients")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"name\":\"feed-" + UUID.randomUUID().toString().substring(0, 8) + "\"}")));
		assertThat(created.status()).isEqualTo(201);
		return new PaymentsApi(this.port, created.field("apiKey"));
	}

	private static List<String> resources(Reply page) {
		List<String> ids = new ArrayList<>();
		for (JsonNode event : page.json().path("data")) {
			ids.add(event.path("data").path("id").asString());
		}
		return ids;
	}

}
