package dev.payonce.client.web;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md section 13: one client's burst of reads cannot starve another client's
 * writes. A client whose payment holds 20,000 refunds sends bursts of 200 list requests
 * at once (real threads released together, real HTTP, real PostgreSQL, a pool of 4) while
 * another client pays: every payment of the other client succeeds within a bound well
 * under the pool's 2 s wait, and the reader gets pages or {@code 429}/{@code 503} with
 * {@code Retry-After}, never an error.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.datasource.hikari.maximum-pool-size=4", "payonce.security.read-limit.per-client=2",
				"payonce.security.read-limit.total=2" })
@Import(TestcontainersConfiguration.class)
class ReadLimitIntegrationTests {

	private static final int READERS = 200;

	private static final int ROUNDS = 2;

	private static final int PAYMENTS = 10;

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Test
	void oneClientsBurstOfListsLeavesAnotherClientsPaymentsUnharmed() throws Exception {
		AdminApi admin = new AdminApi(this.port);
		PaymentsApi reader = new PaymentsApi(this.port, admin.newClientKey("reader"));
		PaymentsApi payer = new PaymentsApi(this.port, admin.newClientKey("payer"));
		String paymentId = reader
			.pay("read-" + UUID.randomUUID(), "{\"orderId\":\"r\",\"amount\":100000,\"currency\":\"ILS\"}")
			.field("id");
		seedRefunds(paymentId, 20_000);
		// The payer's connection is open before the burst, as a busy client's would be.
		assertThat(payer.pay("warm-" + UUID.randomUUID(), "{\"orderId\":\"w\",\"amount\":1200,\"currency\":\"ILS\"}")
			.status()).isEqualTo(201);
		String list = "/payments/" + paymentId + "/refunds?limit=100";
		CountDownLatch start = new CountDownLatch(1);
		ConcurrentLinkedQueue<Reply> reads = new ConcurrentLinkedQueue<>();
		List<Future<?>> readers = new ArrayList<>();
		List<Reply> payments = new ArrayList<>();

		try (ExecutorService threads = Executors.newFixedThreadPool(READERS)) {
			for (int i = 0; i < READERS; i++) {
				readers.add(threads.submit(() -> {
					start.await();
					for (int round = 0; round < ROUNDS; round++) {
						reads.add(reader.get(list));
					}
					return null;
				}));
			}
			start.countDown();
			for (int i = 0; i < PAYMENTS; i++) {
				payments.add(payer.pay("pay-" + UUID.randomUUID(),
						"{\"orderId\":\"p-%d\",\"amount\":1200,\"currency\":\"ILS\"}".formatted(i)));
			}
			for (Future<?> future : readers) {
				future.get(120, TimeUnit.SECONDS);
			}
		}

		assertThat(payments).allSatisfy((payment) -> assertThat(payment.status()).isEqualTo(201));
		assertThat(reads).hasSize(READERS * ROUNDS).allSatisfy((read) -> {
			assertThat(read.status()).isIn(200, 429, 503);
			if (read.status() != 200) {
				assertThat(read.header("Retry-After")).contains("1");
			}
		});
		assertThat(reads).anySatisfy((read) -> assertThat(read.status()).isEqualTo(200));
		assertThat(reads).anySatisfy((read) -> assertThat(read.status()).isEqualTo(429));
	}

	private void seedRefunds(String paymentId, int count) {
		this.jdbc.sql("""
				INSERT INTO refunds (id, payment_id, client_id, amount, currency, status, provider_reference,
				    created_at, updated_at, version)
				SELECT gen_random_uuid(), p.id, p.client_id, 1, p.currency, 'SUCCEEDED', 'sim_re_seed' || g,
				    p.created_at + g * interval '1 microsecond', p.created_at, 0
				FROM payments p, generate_series(1, ?) g
				WHERE p.id = ?::uuid""").params(count, paymentId).update();
	}

}
