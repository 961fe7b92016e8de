package dev.payonce.idempotency;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.OffsetClock;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md section 4, step 6: completed records expire {@code retention} after
 * completion (1 h here), the retention job deletes only expired COMPLETED records, in
 * batches (50 here), exactly once even when two run at once, and an expired key starts a
 * new payment. Payments are never deleted. The clock is moved forward instead of waiting
 * an hour.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "payonce.idempotency.retention=1h", "payonce.idempotency.cleanup.batch-size=50",
				"payonce.reconciliation.enabled=false" })
@Import({ TestcontainersConfiguration.class, OffsetClock.Installed.class })
@ExtendWith(OutputCaptureExtension.class)
class RetentionIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	OffsetClock clock;

	@Autowired
	IdempotencyCleanup cleanup;

	@Autowired
	IdempotencyService idempotency;

	@Autowired
	MeterRegistry meters;

	PaymentsApi api;

	@BeforeEach
	void setUp() {
		this.api = new PaymentsApi(this.port);
	}

	@Test
	void deletesExpiredCompletedRecordsAndKeepsLiveAndInProgressOnes() {
		String run = UUID.randomUUID().toString();
		Reply expiring = this.api.pay("old-" + run, body("order-old-" + run, 100));
		this.clock.advance(Duration.ofMinutes(90), this.jdbc);
		Reply live = this.api.pay("new-" + run, body("order-new-" + run, 200));
		ClaimRequest inProgress = new ClaimRequest(new IdempotencyScope("retention-" + run.substring(0, 8)),
				new IdempotencyKey("held-" + run), RequestFingerprint.of("POST", "/test", Map.of()));
		Claim held = this.idempotency.claim("retention_test", inProgress, (resourceId) -> resourceId);
		double deletedBefore = deletedCounter();

		long deleted = this.cleanup.deleteExpired();

		assertThat(expiring.status()).isEqualTo(201);
		assertThat(held).isInstanceOf(Claim.Acquired.class);
		assertThat(deleted).isGreaterThanOrEqualTo(1);
		assertThat(records("old-" + run)).isZero();
		assertThat(records("new-" + run)).isEqualTo(1);
		assertThat(records("held-" + run)).isEqualTo(1);
		assertThat(payments("order-old-" + run)).isEqualTo(1);
		assertThat(this.api.pay("new-" + run, body("order-new-" + run, 200)).body()).isEqualTo(live.body());
		assertThat(deletedCounter() - deletedBefore).isEqualTo(deleted);
		this.jdbc.sql("DELETE FROM idempotency_records WHERE idempotency_key = ?").param("held-" + run).update();
	}

	@Test
	void expiredKeyStartsANewPayment() {
		String key = "reuse-" + UUID.randomUUID();
		Reply first = this.api.pay(key, body("order-a-" + key, 300));
		this.clock.advance(Duration.ofMinutes(61), this.jdbc);

		Reply sameBody = this.api.pay(key, body("order-a-" + key, 300));
		Reply replay = this.api.pay(key, body("order-a-" + key, 300));
		Reply otherBody = this.api.pay(key, body("order-b-" + key, 400));

		assertThat(sameBody.status()).isEqualTo(201);
		assertThat(sameBody.header("Idempotent-Replayed")).isEmpty();
		assertThat(sameBody.field("id")).isNotEqualTo(first.field("id"));
		assertThat(replay.body()).isEqualTo(sameBody.body());
		assertThat(otherBody.status()).isEqualTo(422);
		assertThat(payments("order-a-" + key)).isEqualTo(2);
	}

	@Test
	void twoConcurrentCleanupsDeleteEachExpiredRecordOnce() throws Exception {
		String scope = "retention-" + UUID.randomUUID().toString().substring(0, 8);
		int rows = 1_000;
		insertExpired(scope, rows);
		long expiredBefore = this.jdbc.sql("""
				SELECT count(*) FROM idempotency_records WHERE status = 'COMPLETED' AND expires_at <= now()""")
			.query(Long.class)
			.single();
		CountDownLatch go = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			List<Future<Long>> runs = List.of(threads.submit(() -> {
				go.await();
				return this.cleanup.deleteExpired();
			}), threads.submit(() -> {
				go.await();
				return this.cleanup.deleteExpired();
			}));

			go.countDown();
			long first = runs.get(0).get(60, TimeUnit.SECONDS);
			long second = runs.get(1).get(60, TimeUnit.SECONDS);

			assertThat(first + second).isEqualTo(expiredBefore);
			assertThat(this.jdbc.sql("SELECT count(*) FROM idempotency_records WHERE scope = ?")
				.param(scope)
				.query(Long.class)
				.single()).isZero();
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void aRunAskedToStopFinishesItsBatchAndStartsNoOther(CapturedOutput output) {
		String scope = "retention-stop-" + UUID.randomUUID().toString().substring(0, 8);
		insertExpired(scope, 200);
		AtomicInteger asked = new AtomicInteger();

		long deleted = this.cleanup.deleteExpired(() -> asked.getAndIncrement() > 0);

		assertThat(deleted).isEqualTo(50);
		assertThat(asked).hasValue(2);
		assertThat(this.jdbc.sql("SELECT count(*) FROM idempotency_records WHERE scope = ?")
			.param(scope)
			.query(Long.class)
			.single()).isGreaterThanOrEqualTo(150);
		assertThat(output).contains("Retention stopped for shutdown between batches");
		this.jdbc.sql("DELETE FROM idempotency_records WHERE scope = ?").param(scope).update();
	}

	@Test
	void overdueGaugeMeasuresTheOldestExpiredRecordUntilRetentionDeletesIt() {
		String run = UUID.randomUUID().toString();
		Reply paid = this.api.pay("overdue-" + run, body("order-overdue-" + run, 500));
		this.clock.advance(Duration.ofMinutes(70), this.jdbc);

		double overdue = overdueGauge();
		this.cleanup.deleteExpired();
		double afterCleanup = overdueGauge();

		assertThat(paid.status()).isEqualTo(201);
		assertThat(overdue).isGreaterThanOrEqualTo(Duration.ofMinutes(10).toSeconds());
		assertThat(afterCleanup).isLessThan(Duration.ofMinutes(1).toSeconds());
	}

	private double overdueGauge() {
		return this.meters.get("payonce.idempotency.cleanup.overdue").gauge().value();
	}

	/**
	 * Inserts completed records that expired a minute ago by the database's clock, the
	 * one retention reads (docs/design.md section 4, "One clock for leases").
	 */
	private void insertExpired(String scope, int rows) {
		this.jdbc
			.sql("""
					INSERT INTO idempotency_records (scope, idempotency_key, operation, request_fingerprint, status, attempt,
					    resource_id, response_status, response_headers, response_body, created_at, completed_at, expires_at)
					SELECT ?, 'k-' || n, 'payment', repeat('0', 64), 'COMPLETED', 1, gen_random_uuid(), 201, '{}', '{}',
					       now() - INTERVAL '1 minute', now() - INTERVAL '1 minute', now() - INTERVAL '1 minute'
					FROM generate_series(1, ?) AS n""")
			.param(scope)
			.param(rows)
			.update();
	}

	private double deletedCounter() {
		return this.meters.get("payonce.idempotency.cleanup.deleted").counter().count();
	}

	private long records(String key) {
		return this.jdbc.sql("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?")
			.param(key)
			.query(Long.class)
			.single();
	}

	private long payments(String orderId) {
		return this.jdbc.sql("SELECT count(*) FROM payments WHERE order_id = ?")
			.param(orderId)
			.query(Long.class)
			.single();
	}

	private static String body(String orderId, long amount) {
		return """
				{"orderId":"%s","amount":%d,"currency":"ILS"}""".formatted(orderId, amount);
	}

}
