package dev.payonce.client.web;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;

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
 * Key rotation under concurrency, over real HTTP on real PostgreSQL: however many
 * rotations of one client run at once, afterwards exactly one key works, and it is one
 * the admin API returned (the client row is locked for a rotation).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class KeyRotationIntegrationTests {

	private static final int ROTATIONS = 8;

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	AdminApi admin;

	@BeforeEach
	void setUp() {
		this.admin = new AdminApi(this.port);
	}

	@RepeatedTest(3)
	void leavesExactlyOneWorkingKeyAfterConcurrentRotations() throws Exception {
		Reply created = this.admin.createClient("rotated concurrently");
		String clientId = created.field("id");
		CountDownLatch go = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(ROTATIONS);
		List<Future<Reply>> rotations = new ArrayList<>();
		try {
			for (int i = 0; i < ROTATIONS; i++) {
				rotations.add(threads.submit(() -> {
					go.await();
					return this.admin.rotate(clientId);
				}));
			}

			go.countDown();
			List<String> issued = new ArrayList<>();
			for (Future<Reply> rotation : rotations) {
				Reply reply = rotation.get(60, TimeUnit.SECONDS);
				assertThat(reply.status()).isEqualTo(201);
				issued.add(reply.field("apiKey"));
			}
			issued.add(created.field("apiKey"));

			List<String> working = issued.stream().filter(this::works).toList();
			assertThat(working).hasSize(1);
			assertThat(working.get(0)).isNotEqualTo(created.field("apiKey"));
			assertThat(activeKeys(clientId)).isEqualTo(1);
		}
		finally {
			threads.shutdownNow();
		}
	}

	private boolean works(String apiKey) {
		int status = new PaymentsApi(this.port, apiKey).get("/payments/" + UUID.randomUUID()).status();
		assertThat(status).isIn(401, 404);
		return status == 404;
	}

	private long activeKeys(String clientId) {
		return this.jdbc.sql("SELECT count(*) FROM api_keys WHERE client_id = ? AND revoked_at IS NULL")
			.param(clientId)
			.query(Long.class)
			.single();
	}

}
