package dev.payonce.refund.web;

import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import tools.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestCredentials;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md section 8, "Listing refunds", over real HTTP on real PostgreSQL: pages
 * in a total order that visit every refund once even when refunds share a creation time,
 * bounded by limit whatever the payment holds, with every bad limit and cursor a 400
 * problem, and another client's payment or refund answered exactly like an unknown one.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class RefundListIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	PaymentsApi api;

	@BeforeEach
	void setUp() {
		this.api = new PaymentsApi(this.port);
	}

	@Test
	void pagesVisitEveryRefundOnceInCreationThenIdOrderThoughTimesTie() {
		String paymentId = pay();
		// 25 refunds, three to a creation time: only the id orders those.
		seedRefunds(paymentId, 25, 3);
		List<String> expected = this.jdbc
			.sql("SELECT id::text FROM refunds WHERE payment_id = ?::uuid ORDER BY created_at, id")
			.param(paymentId)
			.query(String.class)
			.list();
		List<String> seen = new ArrayList<>();
		String path = "/payments/" + paymentId + "/refunds?limit=7";

		JsonNode page;
		int pages = 0;
		do {
			Reply reply = this.api.get(path);
			assertThat(reply.status()).isEqualTo(200);
			page = reply.json();
			assertThat(page.get("object").asString()).isEqualTo("list");
			assertThat(page.get("url").asString()).isEqualTo("/payments/" + paymentId + "/refunds");
			assertThat(page.get("data").size()).isBetween(1, 7);
			page.get("data").forEach((refund) -> seen.add(refund.get("id").asString()));
			path = "/payments/" + paymentId + "/refunds?limit=7&starting_after=" + seen.getLast();
			pages++;
		}
		while (page.get("has_more").booleanValue());

		assertThat(seen).hasSize(25).doesNotHaveDuplicates().isEqualTo(expected);
		assertThat(pages).isEqualTo(4);
	}

	@Test
	void aPageIsTenByDefaultAtMostAHundredAndABoundedIndexScanWhateverThePaymentHolds() {
		String paymentId = pay();
		seedRefunds(paymentId, 20_000, 1);
		this.jdbc.sql("ANALYZE refunds").update();

		Reply first = this.api.get("/payments/" + paymentId + "/refunds");
		Reply largest = this.api.get("/payments/" + paymentId + "/refunds?limit=100");
		String plan = String.join("\n",
				this.jdbc
					.sql("""
							EXPLAIN SELECT * FROM refunds WHERE payment_id = ?::uuid AND client_id = 'cli_development'
							AND (created_at, id) > ('2000-01-01T00:00:00Z'::timestamptz, '00000000-0000-0000-0000-000000000000'::uuid)
							ORDER BY created_at, id LIMIT 101""")
					.param(paymentId)
					.query(String.class)
					.list());

		assertThat(first.json().get("data").size()).isEqualTo(10);
		assertThat(first.json().get("has_more").booleanValue()).isTrue();
		assertThat(largest.json().get("data").size()).isEqualTo(100);
		assertThat(largest.body().length()).isLessThan(40_000);
		assertThat(plan).contains("Limit", "ix_refunds_payment_created_id").doesNotContain("Sort", "Seq Scan");
	}

	@Test
	void anEmptyListAndTheLastPageSayNothingMore() {
		String paymentId = pay();

		Reply empty = this.api.get("/payments/" + paymentId + "/refunds");
		seedRefunds(paymentId, 2, 1);
		Reply exact = this.api.get("/payments/" + paymentId + "/refunds?limit=2");

		assertThat(empty.status()).isEqualTo(200);
		assertThat(empty.json().get("data").size()).isZero();
		assertThat(empty.json().get("has_more").booleanValue()).isFalse();
		assertThat(exact.json().get("data").size()).isEqualTo(2);
		assertThat(exact.json().get("has_more").booleanValue()).isFalse();
	}

	@Test
	void refusesBadLimitsCursorsAndParametersWithInvalidRequest() {
		String paymentId = pay();
		seedRefunds(paymentId, 3, 1);
		String otherPayment = pay();
		seedRefunds(otherPayment, 1, 1);
		String otherPaymentsRefund = firstRefund(otherPayment);
		String list = "/payments/" + paymentId + "/refunds";

		for (String query : List.of("?limit=0", "?limit=101", "?limit=-1", "?limit=ten", "?limit=1.5", "?limit=",
				"?starting_after=nope", "?starting_after=" + UUID.randomUUID(),
				"?starting_after=" + otherPaymentsRefund, "?startingAfter=" + firstRefund(paymentId),
				"?limit=1&limit=2")) {
			Reply reply = this.api.get(list + query);

			assertThat(reply.status()).as(query).isEqualTo(400);
			assertThat(reply.problemType()).as(query).isEqualTo("https://payonce.dev/problems/invalid-request");
			assertThat(reply.json().get("errors").size()).as(query).isEqualTo(1);
		}
		Reply unknown = this.api.get(list + "?starting_after=" + UUID.randomUUID());
		Reply otherPayments = this.api.get(list + "?starting_after=" + otherPaymentsRefund);
		assertThat(otherPayments.bodyApartFromRequestId()).isEqualTo(unknown.bodyApartFromRequestId());
		assertThat(unknown.json().get("errors").get(0).get("field").asString()).isEqualTo("starting_after");
	}

	@Test
	void anotherClientsPaymentAndRefundAnswerExactlyLikeUnknownOnes() {
		String paymentId = pay();
		seedRefunds(paymentId, 1, 1);
		String refundId = firstRefund(paymentId);
		PaymentsApi other = this.api.as(newClientKey());
		String unknownPayment = UUID.randomUUID().toString();
		String unknownRefund = UUID.randomUUID().toString();

		Reply listOfOthers = other.get("/payments/" + paymentId + "/refunds");
		Reply listOfUnknown = other.get("/payments/" + unknownPayment + "/refunds");
		Reply refundOfOthers = other.get("/payments/" + paymentId + "/refunds/" + refundId);
		Reply unknownRefundOfOthers = other.get("/payments/" + paymentId + "/refunds/" + unknownRefund);
		Reply cursorOfOthers = other.get("/payments/" + paymentId + "/refunds?starting_after=" + refundId);

		assertThat(listOfOthers.status()).isEqualTo(404);
		assertThat(listOfOthers.bodyApartFromRequestId().replace(paymentId, "ID"))
			.isEqualTo(listOfUnknown.bodyApartFromRequestId().replace(unknownPayment, "ID"));
		assertThat(refundOfOthers.status()).isEqualTo(404);
		assertThat(refundOfOthers.problemType()).endsWith("/refund-not-found");
		assertThat(refundOfOthers.bodyApartFromRequestId().replace(refundId, "ID"))
			.isEqualTo(unknownRefundOfOthers.bodyApartFromRequestId().replace(unknownRefund, "ID"));
		assertThat(cursorOfOthers.status()).isEqualTo(404);
		assertThat(cursorOfOthers.problemType()).endsWith("/payment-not-found");
	}

	private String pay() {
		Reply paid = this.api.pay("pay-" + UUID.randomUUID(),
				"{\"orderId\":\"order-%s\",\"amount\":100000,\"currency\":\"ILS\"}".formatted(UUID.randomUUID()));
		assertThat(paid.status()).isEqualTo(201);
		return paid.field("id");
	}

	/**
	 * Stores {@code count} refunds of one unit for the payment, {@code perInstant} of
	 * them sharing each creation time.
	 */
	private void seedRefunds(String paymentId, int count, int perInstant) {
		this.jdbc.sql("""
				INSERT INTO refunds (id, payment_id, client_id, amount, currency, status, provider_reference,
				    created_at, updated_at, version)
				SELECT gen_random_uuid(), p.id, p.client_id, 1, p.currency, 'SUCCEEDED', 'sim_re_seed' || g,
				    p.created_at + ((g / ?) * interval '1 millisecond'), p.created_at, 0
				FROM payments p, generate_series(0, ? - 1) g
				WHERE p.id = ?::uuid""").params(perInstant, count, paymentId).update();
	}

	private String firstRefund(String paymentId) {
		return this.jdbc.sql("SELECT id::text FROM refunds WHERE payment_id = ?::uuid ORDER BY created_at, id LIMIT 1")
			.param(paymentId)
			.query(String.class)
			.single();
	}

	private String newClientKey() {
		PaymentsApi admin = this.api.as(TestCredentials.ADMIN_TOKEN);
		Reply created = admin.send(admin.request("/admin/clients")
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"refund-list-other\"}")));
		assertThat(created.status()).isEqualTo(201);
		return created.field("apiKey");
	}

}
