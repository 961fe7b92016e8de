package dev.payonce.idempotency;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;

import dev.payonce.OffsetClock;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.history.Anomaly;
import dev.payonce.history.History;
import dev.payonce.history.HistoryChecker;
import dev.payonce.history.KeyOutcome;
import dev.payonce.idempotency.IdempotencyService.Execution;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The history checker's teeth against a deliberately broken engine: the completion's
 * fence on the attempt switched off ({@link IdempotencyRecords#switchOffCompletionFence},
 * the model's {@code NO_FENCE} mutant, docs/design.md section 14). A small run of
 * {@value #KEYS} keys, each sent three times with {@link TestOperation}: a first request
 * whose act is held until its lease has ended, a takeover that completes, then the first
 * request let go, then a replay. The operation's effect is its completion's write of the
 * resource ({@code engine_test_resources.finishes}), so a stale completion that writes is
 * a second "charge". With the fence, the history is sound; without it, the checker names
 * a success without exactly one charge for every key.
 *
 * <p>
 * Payments and refunds are not used here: their completion also moves the resource only
 * from its read version and only out of {@code PENDING}, so a stale completion without
 * the fence fails there before it writes (see docs/design.md section 14).
 */
@SpringBootTest(webEnvironment = WebEnvironment.MOCK,
		properties = { "payonce.reconciliation.enabled=false", "payonce.idempotency.cleanup.enabled=false" })
// The context of IdempotencyEngineIntegrationTests, which runs before this class
// (ContextGroupingClassOrderer) and so starts it once for both.
@Import({ TestcontainersConfiguration.class, OffsetClock.Installed.class,
		IdempotencyEngineIntegrationTests.Guarded.class })
// The broken engine must serve no other test class.
@DirtiesContext
class UnfencedCompletionIntegrationTests {

	static final int KEYS = 6;

	@Autowired
	IdempotencyService engine;

	@Autowired
	IdempotencyRecords records;

	@Autowired
	OffsetClock clock;

	@Autowired
	JdbcClient jdbc;

	@BeforeEach
	void setUp() {
		this.jdbc.sql(TestOperation.CREATE_TABLE).update();
	}

	@Test
	void theHistoryCheckerNamesTheStaleCompletionsOfAnEngineWithoutItsCompletionFence() throws Exception {
		List<Anomaly> fenced = run("fenced");
		this.records.switchOffCompletionFence();

		List<Anomaly> unfenced = run("unfenced");

		assertThat(fenced).isEmpty();
		assertThat(unfenced).hasSize(KEYS)
			.allSatisfy((anomaly) -> assertThat(anomaly.kind()).isEqualTo(Anomaly.Kind.SUCCESS_WITHOUT_ONE_CHARGE));
	}

	/** One run of {@value #KEYS} keys, each with a stale attempt; its anomalies. */
	private List<Anomaly> run(String name) throws Exception {
		IdempotencyScope scope = new IdempotencyScope("unfenced-" + UUID.randomUUID().toString().substring(0, 8));
		TestOperation operation = new TestOperation("engine_test", this.jdbc);
		History history = new History();
		ExecutorService first = Executors.newSingleThreadExecutor();
		try {
			for (int i = 0; i < KEYS; i++) {
				ClaimRequest request = new ClaimRequest(scope, new IdempotencyKey(name + "-" + i),
						RequestFingerprint.of("POST", "/engine-test", Map.of("body", name + "-" + i)));
				CountDownLatch entered = new CountDownLatch(1);
				CountDownLatch mayLeave = new CountDownLatch(1);
				operation.holdingNextAct(entered, mayLeave);
				History.Call staleCall = history.invoke(request.key().value());
				Future<Execution<String>> stale = first.submit(() -> this.engine.execute(operation, request));
				assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
				this.clock.advance(this.engine.lease().plusSeconds(1), this.jdbc);

				record(history.invoke(request.key().value()), this.engine.execute(operation, request));
				mayLeave.countDown();
				record(staleCall, stale.get(10, TimeUnit.SECONDS));
				record(history.invoke(request.key().value()), this.engine.execute(operation, request));
			}
		}
		finally {
			first.shutdownNow();
		}
		return HistoryChecker.report("engine, completion " + name, history, outcomes(scope));
	}

	private static void record(History.Call call, Execution<String> execution) {
		if (execution instanceof Execution.Completed<String> completed) {
			call.answered(completed.response().status(), completed.response().body());
		}
		else {
			call.info(409);
		}
	}

	/** Each key's completion writes of its resource, and whether it is in progress. */
	private Map<String, KeyOutcome> outcomes(IdempotencyScope scope) {
		Map<String, KeyOutcome> outcomes = new HashMap<>();
		this.jdbc.sql("""
				SELECT r.idempotency_key, r.status = 'IN_PROGRESS' AS in_progress, t.finishes
				FROM idempotency_records r JOIN engine_test_resources t ON t.id = r.resource_id
				WHERE r.scope = ?""")
			.param(scope.value())
			.query((row, n) -> outcomes.put(row.getString("idempotency_key"),
					new KeyOutcome(row.getLong("finishes"), 0, 0, row.getBoolean("in_progress"))))
			.list();
		return outcomes;
	}

}
