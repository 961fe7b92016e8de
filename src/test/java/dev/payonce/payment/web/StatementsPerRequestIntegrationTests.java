package dev.payonce.payment.web;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

import dev.payonce.CountedStatements;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The database work a request costs, counted as PostgreSQL's statement log would show it
 * (docs/design.md section 4, "The claim in one statement", "Completion in one
 * statement"): a new payment and a new refund are three statements each (the claim, the
 * simulated provider's ledger write, the completion), a replay not yet in the replay
 * cache is one (the claim's statement reads the record first and inserts nothing), and a
 * cached replay none. Real HTTP, real PostgreSQL, the simulated provider; background jobs
 * that touch these tables are off.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "payonce.reconciliation.enabled=false", "payonce.idempotency.cleanup.enabled=false" })
// One context with CompletionWithoutRereadIntegrationTests, whose held charges
// pass every other charge straight through.
@Import({ TestcontainersConfiguration.class, CountedStatements.class,
		CompletionWithoutRereadIntegrationTests.HeldCharges.class })
class StatementsPerRequestIntegrationTests {

	private static final String[] REQUEST_TABLES = { "idempotency_records", "payments", "refunds",
			"simulated_provider_", "client_still_authorized" };

	@LocalServerPort
	int port;

	@Autowired
	CountedStatements counted;

	PaymentsApi api;

	@BeforeEach
	void setUp() {
		this.api = new PaymentsApi(this.port);
		// Warm: the API key cache holds the key, as in a running service.
		this.api.pay(PaymentIdempotencyIntegrationTests.newKey(),
				PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 1000, "ILS"));
	}

	@Test
	void aNewPaymentIsThreeStatementsAndItsReplaysOneThenNone() {
		String key = PaymentIdempotencyIntegrationTests.newKey();
		String body = PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 1500, "ILS");
		this.counted.clear();

		Reply created = this.api.pay(key, body);
		List<String> paying = statements();
		Reply uncached = this.api.pay(key, body);
		List<String> replaying = statements();
		Reply cached = this.api.pay(key, body);
		List<String> replayingCached = statements();

		assertThat(created.status()).isEqualTo(201);
		assertThat(paying).as("statements of a new payment: %s", paying).hasSize(3);
		assertThat(uncached.header("Idempotent-Replayed")).contains("true");
		assertThat(replaying).as("statements of an uncached replay: %s", replaying).hasSize(1);
		assertThat(cached.header("Idempotent-Replayed")).contains("true");
		assertThat(replayingCached).as("statements of a cached replay: %s", replayingCached).isEmpty();
	}

	@Test
	void aNewRefundIsThreeStatements() {
		Reply payment = this.api.pay(PaymentIdempotencyIntegrationTests.newKey(),
				PaymentsApi.paymentBody("order-" + UUID.randomUUID(), 2000, "ILS"));
		assertThat(payment.status()).isEqualTo(201);
		this.counted.clear();

		Reply refund = this.api.refund(payment.field("id"), PaymentIdempotencyIntegrationTests.newKey(), """
				{"amount":700}""");
		List<String> refunding = statements();

		assertThat(refund.status()).isEqualTo(201);
		assertThat(refunding).as("statements of a new refund: %s", refunding).hasSize(3);
	}

	/** The statements counted since the last call, and a fresh count from here. */
	private List<String> statements() {
		List<String> statements = this.counted.touching(REQUEST_TABLES);
		this.counted.clear();
		return statements;
	}

}
