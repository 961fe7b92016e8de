package dev.payonce.idempotency;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.payonce.OffsetClock;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.idempotency.IdempotencyService.Execution;
import dev.payonce.idempotency.IdempotentOperation.Action;
import dev.payonce.idempotency.ReconciliationStep.Settlement;
import dev.payonce.idempotency.ResourceTable.Transition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The engine on its own (docs/design.md section 4), driven by {@link TestOperation}, a
 * test-only operation with no payment in sight: claim with the resource created in the
 * claim transaction, replay, mismatch, another operation's key, in-progress, refusal,
 * release, takeover with a reloaded resource, fenced completion, reconciliation scoped by
 * operation (with a step's settle time and a {@link Settlement.Reattempt}) and cut short
 * for a shutdown, completion of a resource learned elsewhere
 * ({@link IdempotencyService#completeResource}), the oldest-ended-lease gauge, and a
 * {@link ClaimGuard} refusing inside the claim transaction. Real PostgreSQL (the web
 * server is up only because security needs it); the clock moves past the 30 s lease
 * instead of waiting for it.
 */
@SpringBootTest(webEnvironment = WebEnvironment.MOCK,
		properties = { "payonce.reconciliation.enabled=false", "payonce.idempotency.cleanup.enabled=false" })
@Import({ TestcontainersConfiguration.class, OffsetClock.Installed.class,
		IdempotencyEngineIntegrationTests.Guarded.class })
class IdempotencyEngineIntegrationTests {

	@Autowired
	IdempotencyService engine;

	@Autowired
	IdempotencyReconciler reconciler;

	@Autowired
	List<ReconciliationStep> steps;

	@Autowired
	OffsetClock clock;

	@Autowired
	IdempotencyProperties properties;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	MeterRegistry meters;

	@Autowired
	DataSource dataSource;

	@Autowired
	ResourceTable<EngineTestResource> inserting;

	@Autowired
	ResourceTable<EngineTestResource> reserving;

	@Autowired
	ResourceTable<EngineTestResource> reservingPrechecked;

	@Autowired
	ResourceTable<EngineTestResource> settling;

	/** The arguments of {@link Guarded#settling()}'s completion update. */
	static volatile Function<EngineTestResource, Object[]> settledStock = (
			resource) -> new Object[] { UUID.randomUUID() };

	IdempotencyScope scope;

	@BeforeEach
	void setUp() {
		this.jdbc.sql(TestOperation.CREATE_TABLE).update();
		this.jdbc.sql(EngineTestResource.ADD_VERSION).update();
		this.scope = new IdempotencyScope("engine-" + UUID.randomUUID().toString().substring(0, 8));
	}

	@Test
	void actsOnceAndReplaysTheStoredResponse() {
		TestOperation operation = new TestOperation("engine_test", this.jdbc);
		ClaimRequest request = request("once", "a");

		Execution<String> first = this.engine.execute(operation, request);
		Execution<String> second = this.engine.execute(operation, request);

		assertThat(first).isInstanceOfSatisfying(Execution.Completed.class,
				(completed) -> assertThat(completed.replayed()).isFalse());
		assertThat(second).isInstanceOfSatisfying(Execution.Completed.class, (completed) -> {
			assertThat(completed.replayed()).isTrue();
			assertThat(completed.response()).isEqualTo(((Execution.Completed<String>) first).response());
		});
		assertThat(operation.creates).hasValue(1);
		assertThat(operation.acts).hasValue(1);
		assertThat(resources("engine_test", "FINISHED")).isEqualTo(1);
	}

	@Test
	void answersKeyReusedForAnotherFingerprintAndRunsNothing() {
		TestOperation operation = new TestOperation("engine_test", this.jdbc);
		this.engine.execute(operation, request("mismatch", "a"));

		Execution<String> other = this.engine.execute(operation, request("mismatch", "b"));

		assertThat(other).isInstanceOf(Execution.KeyReused.class);
		assertThat(operation.creates).hasValue(1);
		assertThat(operation.acts).hasValue(1);
	}

	@Test
	void answersKeyReusedForTheSameKeySentToAnotherOperation() {
		TestOperation first = new TestOperation("engine_test", this.jdbc);
		TestOperation second = new TestOperation("engine_other", this.jdbc);
		this.engine.execute(first, request("shared", "a"));

		Execution<String> other = this.engine.execute(second, request("shared", "a"));

		assertThat(other).isInstanceOf(Execution.KeyReused.class);
		assertThat(second.creates).hasValue(0);
		assertThat(second.acts).hasValue(0);
	}

	@Test
	void answersInProgressWhileTheFirstRequestHoldsTheLease() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch mayLeave = new CountDownLatch(1);
		TestOperation operation = new TestOperation("engine_test", this.jdbc).holdingNextAct(entered, mayLeave);
		ClaimRequest request = request("busy", "a");
		ExecutorService first = Executors.newSingleThreadExecutor();
		try {
			Future<Execution<String>> running = first.submit(() -> this.engine.execute(operation, request));
			assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

			Execution<String> meanwhile = this.engine.execute(operation, request);
			mayLeave.countDown();

			assertThat(meanwhile).isInstanceOf(Execution.InProgress.class);
			assertThat(running.get(10, TimeUnit.SECONDS)).isInstanceOf(Execution.Completed.class);
			assertThat(operation.acts).hasValue(1);
		}
		finally {
			mayLeave.countDown();
			first.shutdownNow();
		}
	}

	@Test
	void refusedClaimStoresNeitherRecordNorResource() {
		TestOperation refusing = new TestOperation("engine_test", this.jdbc).refusing();
		TestOperation accepting = new TestOperation("engine_test", this.jdbc);
		ClaimRequest request = request("refused", "a");

		Execution<String> refused = this.engine.execute(refusing, request);

		assertThat(refused).isEqualTo(new Execution.Refused<>("refused by the test"));
		assertThat(records("refused")).isZero();
		assertThat(resources("engine_test", "CREATED")).isZero();
		assertThat(this.engine.execute(accepting, request)).isInstanceOfSatisfying(Execution.Completed.class,
				(completed) -> assertThat(completed.replayed()).isFalse());
	}

	@Test
	void releasedLeaseIsTakenOverAtOnceAndTheSameResourceReloaded() {
		TestOperation operation = new TestOperation("engine_test", this.jdbc).releasingWhen((act) -> act == 1);
		ClaimRequest request = request("released", "a");

		Execution<String> released = this.engine.execute(operation, request);
		Execution<String> retried = this.engine.execute(operation, request);

		assertThat(released).isInstanceOf(Execution.Released.class);
		UUID resourceId = ((Execution.Released<String>) released).resourceId();
		assertThat(retried).isInstanceOfSatisfying(Execution.Completed.class,
				(completed) -> assertThat(completed.response().body()).contains(resourceId.toString()));
		assertThat(operation.creates).hasValue(1);
		assertThat(operation.loads).hasValue(1);
		assertThat(operation.acts).hasValue(2);
	}

	/**
	 * A thread stalled between its claim and its act (here: its clock moves on by all of
	 * the lease but one second inside the claim step) has less of its lease left than the
	 * act may take: the engine never acts on it, releases the lease, and the retry acts
	 * once under a lease of its own (docs/design.md section 4, "No act after its lease").
	 */
	@Test
	void anAttemptStalledPastItsActBudgetNeverActsAndTheRetryActsOnce() {
		Duration lease = this.properties.lease();
		TestOperation operation = new TestOperation("engine_test", this.jdbc).withActBudget(Duration.ofSeconds(5),
				() -> this.clock.advance(lease.minusSeconds(1)));
		ClaimRequest request = request("stalled", "a");

		Execution<String> stalled = this.engine.execute(operation, request);
		int actsAfterStall = operation.acts.get();
		Execution<String> retried = this.engine.execute(operation, request);

		assertThat(stalled).isInstanceOf(Execution.InProgress.class);
		assertThat(actsAfterStall).isZero();
		assertThat(retried).isInstanceOf(Execution.Completed.class);
		assertThat(operation.acts).hasValue(1);
		assertThat(operation.creates).hasValue(1);
		assertThat(resources("engine_test", "FINISHED")).isEqualTo(1);
	}

	/**
	 * An act budget the lease leaves room for changes nothing: the engine acts at once.
	 */
	@Test
	void anAttemptWithinItsActBudgetActsAtOnce() {
		TestOperation operation = new TestOperation("engine_test", this.jdbc).withActBudget(Duration.ofSeconds(5),
				() -> {
				});

		Execution<String> done = this.engine.execute(operation, request("within", "a"));

		assertThat(done).isInstanceOf(Execution.Completed.class);
		assertThat(operation.acts).hasValue(1);
	}

	/**
	 * A declared resource's finish over the act step's copy completes in one statement
	 * fenced by the record's lock: a stale attempt writes nothing, not even its resource,
	 * and the holder's write and response land together without reading the resource
	 * again (docs/design.md section 4, "Completion in one statement").
	 */
	@Test
	void aFinishOverTheReadCopyCompletesInOneStatementAndAStaleAttemptWritesNothing() {
		ClaimRequest request = request("rendered", "a");
		Inserting operation = new Inserting();
		Claim first = this.engine.claim(operation, request);
		assertThat(first).isInstanceOf(Claim.Acquired.class);
		EngineTestResource firstCopy = (EngineTestResource) ((Claim.Acquired) first).created();
		UUID resourceId = ((Claim.Acquired) first).lease().resourceId();
		this.clock.advance(this.engine.lease().plusSeconds(1), this.jdbc);
		Claim second = this.engine.claim(operation, request);
		assertThat(second).isInstanceOfSatisfying(Claim.Acquired.class,
				(acquired) -> assertThat(acquired.takeover()).isTrue());
		EngineTestResource secondCopy = this.inserting.prepared().load(resourceId);

		Moving stale = new Moving("STALE");
		Optional<StoredResponse> staleAnswer = this.engine.complete(((Claim.Acquired) first).lease(),
				this.inserting.finish(firstCopy, stale));
		Moving holder = new Moving("RENDERED");
		Optional<StoredResponse> answer = this.engine.complete(((Claim.Acquired) second).lease(),
				this.inserting.finish(secondCopy, holder));

		assertThat(staleAnswer).isEmpty();
		assertThat(stale.completed).hasValue(0);
		assertThat(stale.applied).hasValue(1);
		assertThat(answer).contains(json("copy"));
		assertThat(holder.completed).hasValue(1);
		assertThat(holder.applied).hasValue(1);
		assertThat(state(resourceId)).isEqualTo("RENDERED");
		assertThat(version(resourceId)).isOne();
		assertThat(secondCopy.version).isOne();
		assertThat(status("rendered")).isEqualTo("COMPLETED");
		assertThat(storedBody("rendered")).isEqualTo(json("copy").body());
	}

	/**
	 * A finish whose copy's row changed since the act step read it (its versioned write
	 * matches no row) writes nothing and is completed the plain way: the resource read
	 * again inside the fenced transaction and the same transition applied to it. With a
	 * declared completion update, one that matches no row undoes the resource's write
	 * before it.
	 */
	@ParameterizedTest(name = "{0} write(s)")
	@ValueSource(ints = { 1, 2 })
	void aFinishWhoseWriteMatchesNoRowIsReadAgainAndLeavesNoPartOfItself(int writes) {
		ClaimRequest request = request("changed-" + writes, "a");
		UUID stock = stock(5);
		AtomicInteger settlements = new AtomicInteger();
		settledStock = (resource) -> new Object[] { (settlements.getAndIncrement() == 0) ? UUID.randomUUID() : stock };
		ResourceTable<EngineTestResource> table = (writes == 1) ? this.inserting : this.settling;
		Inserting operation = new Inserting(table);
		Claim claim = this.engine.claim(operation, request);
		Lease lease = ((Claim.Acquired) claim).lease();
		EngineTestResource copy = (EngineTestResource) ((Claim.Acquired) claim).created();
		UUID resourceId = lease.resourceId();
		if (writes == 1) {
			// Changed since the act step read it.
			this.jdbc.sql("UPDATE engine_test_resources SET version = version + 1 WHERE id = ?")
				.param(resourceId)
				.update();
		}
		Moving changed = new Moving("RENDERED");

		Optional<StoredResponse> answer = this.engine.complete(lease, table.finish(copy, changed));

		assertThat(answer).contains(json("reread"));
		assertThat(changed.applied).hasValue(2);
		assertThat(changed.completed).hasValue(1);
		assertThat(state(resourceId)).isEqualTo("REREAD");
		// One write of the resource stayed: the undone one left no version behind.
		assertThat(version(resourceId)).isEqualTo((writes == 1) ? 2 : 1);
		assertThat(left(stock)).isEqualTo((writes == 1) ? 5 : 6);
		assertThat(storedBody("changed-" + writes)).isEqualTo(json("reread").body());
	}

	private UUID createResource(UUID resourceId) {
		this.jdbc.sql("INSERT INTO engine_test_resources (id, operation, state, finishes) VALUES (?, ?, 'CREATED', 0)")
			.params(resourceId, "engine_test")
			.update();
		return resourceId;
	}

	private String storedBody(String key) {
		return this.jdbc.sql("SELECT response_body FROM idempotency_records WHERE scope = ? AND idempotency_key = ?")
			.params(this.scope.value(), key)
			.query(String.class)
			.single();
	}

	private long version(UUID resourceId) {
		return this.jdbc.sql("SELECT version FROM engine_test_resources WHERE id = ?")
			.param(resourceId)
			.query(Long.class)
			.single();
	}

	private static StoredResponse json(String value) {
		return new StoredResponse(201, Map.of("Content-Type", "application/json"), "{\"v\":\"" + value + "\"}");
	}

	/**
	 * A transition that records what the engine asked of it: applied first to the act
	 * step's copy ({@code to}, "copy"), then, if the engine reads the resource again, to
	 * that ({@code REREAD}, "reread").
	 */
	private static final class Moving implements Transition<EngineTestResource> {

		final AtomicInteger applied = new AtomicInteger();

		final AtomicInteger completed = new AtomicInteger();

		private final String to;

		Moving(String to) {
			this.to = to;
		}

		@Override
		public StoredResponse apply(EngineTestResource resource) {
			boolean first = this.applied.incrementAndGet() == 1;
			resource.state = first ? this.to : "REREAD";
			return json(first ? "copy" : "reread");
		}

		@Override
		public void completed(EngineTestResource resource, StoredResponse response) {
			this.completed.incrementAndGet();
		}

	}

	@Test
	void takeoverReloadsTheResourceAndFencesOutTheStaleAttemptsCompletion() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch mayLeave = new CountDownLatch(1);
		TestOperation operation = new TestOperation("engine_test", this.jdbc).holdingNextAct(entered, mayLeave);
		ClaimRequest request = request("takeover", "a");
		ExecutorService first = Executors.newSingleThreadExecutor();
		try {
			Future<Execution<String>> stale = first.submit(() -> this.engine.execute(operation, request));
			assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
			this.clock.advance(this.engine.lease().plusSeconds(1), this.jdbc);

			Execution<String> takeover = this.engine.execute(operation, request);
			mayLeave.countDown();
			Execution<String> staleAnswer = stale.get(10, TimeUnit.SECONDS);

			assertThat(takeover).isInstanceOfSatisfying(Execution.Completed.class,
					(completed) -> assertThat(completed.replayed()).isFalse());
			assertThat(staleAnswer).isInstanceOf(Execution.InProgress.class);
			assertThat(operation.creates).hasValue(1);
			assertThat(operation.loads).hasValue(1);
			assertThat(operation.acts).hasValue(2);
			assertThat(operation.finishes).hasValue(1);
			assertThat(attempt("takeover")).isEqualTo(2);
			assertThat(this.engine.execute(operation, request)).isInstanceOfSatisfying(Execution.Completed.class,
					(completed) -> assertThat(completed.response())
						.isEqualTo(((Execution.Completed<String>) takeover).response()));
		}
		finally {
			mayLeave.countDown();
			first.shutdownNow();
		}
	}

	@Test
	void aPaymentReconcilerNeverTakesARefundsStaleRecord() {
		TestOperation refund = new TestOperation("engine_refund", this.jdbc).releasingWhen((act) -> true);
		this.engine.execute(refund, request("stale-refund", "a"));
		this.clock.advance(Duration.ofHours(1), this.jdbc);
		ReconciliationStep payments = this.steps.stream()
			.filter((step) -> step.operation().equals("payment"))
			.findFirst()
			.orElseThrow();
		ReconciliationStep refunds = new ReconciliationStep() {
			@Override
			public String operation() {
				return "engine_refund";
			}

			@Override
			public Settlement settle(Lease lease) {
				return new Settlement.Found(refund.finish());
			}
		};

		this.reconciler.reconcile(payments);
		int attemptAfterPaymentRun = attempt("stale-refund");
		IdempotencyReconciler.Report own = this.reconciler.reconcile(refunds);

		assertThat(attemptAfterPaymentRun).isEqualTo(1);
		assertThat(own.found()).isGreaterThanOrEqualTo(1);
		assertThat(attempt("stale-refund")).isEqualTo(2);
		assertThat(status("stale-refund")).isEqualTo("COMPLETED");
		assertThat(refund.finishes).hasValue(1);
	}

	@Test
	void completeResourceTakesOverOnlyTheNamedOperationsRecordAndCompletesItFenced() {
		TestOperation operation = new TestOperation("engine_test", this.jdbc).releasingWhen((act) -> act == 1);
		ClaimRequest request = request("completed-elsewhere", "a");
		UUID resourceId = ((Execution.Released<String>) this.engine.execute(operation, request)).resourceId();

		var otherOperation = this.engine.completeResource("engine_other", this.scope, resourceId, operation.finish());
		int attemptAfterOtherOperation = attempt("completed-elsewhere");
		var own = this.engine.completeResource("engine_test", this.scope, resourceId, operation.finish());
		var again = this.engine.completeResource("engine_test", this.scope, resourceId, operation.finish());
		Execution<String> retry = this.engine.execute(operation, request);

		assertThat(otherOperation).isEmpty();
		assertThat(attemptAfterOtherOperation).isEqualTo(1);
		assertThat(own).isPresent();
		assertThat(again).as("a completed record is never completed twice").isEmpty();
		assertThat(status("completed-elsewhere")).isEqualTo("COMPLETED");
		assertThat(attempt("completed-elsewhere")).isEqualTo(2);
		assertThat(operation.finishes).hasValue(1);
		assertThat(retry).isInstanceOfSatisfying(Execution.Completed.class, (completed) -> {
			assertThat(completed.replayed()).isTrue();
			assertThat(completed.response()).isEqualTo(own.get());
		});
		assertThat(operation.acts).hasValue(1);
	}

	@Test
	void completeResourceLeavesALiveLeaseAlone() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch mayLeave = new CountDownLatch(1);
		TestOperation operation = new TestOperation("engine_test", this.jdbc).holdingNextAct(entered, mayLeave);
		ExecutorService first = Executors.newSingleThreadExecutor();
		try {
			Future<Execution<String>> running = first
				.submit(() -> this.engine.execute(operation, request("held-elsewhere", "a")));
			assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
			UUID resourceId = this.jdbc
				.sql("SELECT resource_id FROM idempotency_records WHERE scope = ? AND idempotency_key = ?")
				.params(this.scope.value(), "held-elsewhere")
				.query(UUID.class)
				.single();

			var meanwhile = this.engine.completeResource("engine_test", this.scope, resourceId, operation.finish());
			mayLeave.countDown();

			assertThat(meanwhile).isEmpty();
			assertThat(running.get(10, TimeUnit.SECONDS)).isInstanceOf(Execution.Completed.class);
			assertThat(attempt("held-elsewhere")).isEqualTo(1);
			assertThat(operation.finishes).hasValue(1);
		}
		finally {
			mayLeave.countDown();
			first.shutdownNow();
		}
	}

	@Test
	void reattemptRunsItsStepInTheFencedReleaseAndTheNextRequestTakesOverAtOnce() {
		TestOperation operation = new TestOperation("engine_reattempt", this.jdbc).releasingWhen((act) -> act == 1);
		ClaimRequest request = request("reattempt", "a");
		UUID resourceId = ((Execution.Released<String>) this.engine.execute(operation, request)).resourceId();
		this.clock.advance(Duration.ofMinutes(1), this.jdbc);
		ReconciliationStep step = new ReconciliationStep() {
			@Override
			public String operation() {
				return "engine_reattempt";
			}

			@Override
			public Settlement settle(Lease lease) {
				return new Settlement.Reattempt("the test wants another attempt",
						(id) -> IdempotencyEngineIntegrationTests.this.jdbc
							.sql("UPDATE engine_test_resources SET state = 'PREPARED' WHERE id = ?")
							.param(id)
							.update());
			}
		};

		IdempotencyReconciler.Report report = this.reconciler.reconcile(step);
		String stateAfterReconciliation = state(resourceId);
		String statusAfterReconciliation = status("reattempt");
		Execution<String> retry = this.engine.execute(operation, request);

		assertThat(report.released()).isGreaterThanOrEqualTo(1);
		assertThat(stateAfterReconciliation).isEqualTo("PREPARED");
		assertThat(statusAfterReconciliation).isEqualTo("IN_PROGRESS");
		assertThat(retry).as("the release ended the lease at once").isInstanceOf(Execution.Completed.class);
		assertThat(attempt("reattempt")).isEqualTo(3);
		assertThat(operation.acts).hasValue(2);
	}

	@Test
	void aStepsSettleTimeLeavesItsRecordsAloneUntilItHasPassed() {
		TestOperation operation = new TestOperation("engine_settle", this.jdbc).releasingWhen((act) -> true);
		this.engine.execute(operation, request("settling", "a"));
		ReconciliationStep step = new ReconciliationStep() {
			@Override
			public String operation() {
				return "engine_settle";
			}

			@Override
			public Settlement settle(Lease lease) {
				return new Settlement.Found(operation.finish());
			}

			@Override
			public Duration settleTime() {
				return Duration.ofMinutes(10);
			}
		};

		this.clock.advance(Duration.ofMinutes(1), this.jdbc);
		this.reconciler.reconcile(step);
		int attemptPastStaleAfter = attempt("settling");
		this.clock.advance(Duration.ofMinutes(10), this.jdbc);
		this.reconciler.reconcile(step);

		assertThat(attemptPastStaleAfter).as("past stale-after (30 s) but not the settle time").isEqualTo(1);
		assertThat(status("settling")).isEqualTo("COMPLETED");
		assertThat(attempt("settling")).isEqualTo(2);
	}

	@Test
	void aRunStoppedForShutdownFinishesTheRecordItSettlesAndReleasesTheRestOfItsBatchAtOnce() {
		String name = "stop_" + UUID.randomUUID().toString().substring(0, 8).replaceAll("[0-9-]", "x");
		TestOperation operation = new TestOperation(name, this.jdbc).releasingWhen((act) -> true);
		List.of("stop-a", "stop-b", "stop-c").forEach((key) -> this.engine.execute(operation, request(key, "a")));
		this.clock.advance(Duration.ofHours(1), this.jdbc);
		AtomicInteger settled = new AtomicInteger();
		ReconciliationStep step = new ReconciliationStep() {
			@Override
			public String operation() {
				return name;
			}

			@Override
			public Settlement settle(Lease lease) {
				settled.incrementAndGet();
				return new Settlement.Found(operation.finish());
			}
		};

		IdempotencyReconciler.Report report = this.reconciler.reconcile(step, () -> settled.get() > 0);

		assertThat(report.takenOver()).isEqualTo(3);
		assertThat(report.found()).isEqualTo(1);
		assertThat(report.released()).isEqualTo(2);
		assertThat(settled).hasValue(1);
		assertThat(this.jdbc
			.sql("""
					SELECT count(*) FROM idempotency_records
					WHERE scope = ? AND operation = ? AND status = 'IN_PROGRESS' AND attempt = 2 AND locked_until <= now()""")
			.params(this.scope.value(), name)
			.query(Long.class)
			.single()).isEqualTo(2);
		this.jdbc.sql("DELETE FROM idempotency_records WHERE operation = ?").param(name).update();
	}

	@Test
	void aRunStoppedBeforeItStartsTakesNothingOver() {
		AtomicInteger asked = new AtomicInteger();

		IdempotencyReconciler.Report report = this.reconciler.reconcile(() -> asked.incrementAndGet() > 0);

		assertThat(report.takenOver()).isZero();
		assertThat(asked).hasValue(1);
	}

	@Test
	void oldestExpiredLeaseGaugeMeasuresHowLongAgoTheLeaseEnded() {
		TestOperation operation = new TestOperation("engine_test", this.jdbc).releasingWhen((act) -> true);
		this.engine.execute(operation, request("gauge", "a"));
		this.clock.advance(Duration.ofMinutes(2), this.jdbc);

		double oldest = this.meters.get("payonce.idempotency.leases.expired.oldest").gauge().value();

		assertThat(status("gauge")).isEqualTo("IN_PROGRESS");
		assertThat(oldest).isGreaterThanOrEqualTo(Duration.ofMinutes(2).toSeconds());
		this.jdbc.sql("DELETE FROM idempotency_records WHERE scope = ?").param(this.scope.value()).update();
	}

	@Test
	void aClaimGuardThatThrowsAbortsTheClaimBeforeAnythingIsWritten() {
		TestOperation operation = new TestOperation("engine_test", this.jdbc);
		this.scope = new IdempotencyScope("guarded-" + UUID.randomUUID().toString().substring(0, 8));

		assertThatIllegalStateException().isThrownBy(() -> this.engine.execute(operation, request("guarded", "a")))
			.withMessage("refused by the guard");

		assertThat(records("guarded")).isZero();
		assertThat(operation.creates).hasValue(0);
		assertThat(operation.acts).hasValue(0);
	}

	@Test
	void anOperationsOwnAuthorizeRunsInTheClaimTransactionAndRefusesBeforeAnythingIsWritten() {
		TestOperation operation = new TestOperation("engine_test", this.jdbc).unauthorized();

		assertThatIllegalStateException().isThrownBy(() -> this.engine.execute(operation, request("unauthorized", "a")))
			.withMessage("refused by the request's own check");

		assertThat(records("unauthorized")).isZero();
		assertThat(operation.creates).hasValue(0);
		assertThat(operation.acts).hasValue(0);
	}

	/**
	 * docs/design.md section 4, "The claim in one statement": an operation that declares
	 * its resource, with every guard declaring a condition, has a fresh key claimed and
	 * its resource inserted by one statement; no claim transaction runs.
	 */
	@Test
	void aFreshKeyIsClaimedInOneStatementTogetherWithTheInsertedResource() {
		Inserting operation = new Inserting();
		ClaimRequest request = request("at-once", "a");

		Execution<String> first = this.engine.execute(operation, request);
		Execution<String> replay = this.engine.execute(operation, request);

		assertThat(first).isInstanceOfSatisfying(Execution.Completed.class,
				(completed) -> assertThat(completed.replayed()).isFalse());
		assertThat(replay).isInstanceOfSatisfying(Execution.Completed.class,
				(completed) -> assertThat(completed.replayed()).isTrue());
		// The replay read the record in the claim's statement, which inserted nothing.
		assertThat(operation.inserts).hasValue(2);
		assertThat(operation.insertedRows()).isOne();
		assertThat(operation.creates).hasValue(0);
		assertThat(operation.acts).hasValue(1);
		assertThat(status("at-once")).isEqualTo("COMPLETED");
		assertThat(resources("engine_test_inserting", "FINISHED")).isEqualTo(1);
	}

	/**
	 * A key that already has a record is never inserted over: the one statement inserts
	 * neither record nor resource, and the claim goes on in a transaction, which finds
	 * the live lease.
	 */
	@Test
	void aKeyAlreadyHeldIsNotClaimedAgainInOneStatement() {
		ClaimRequest request = request("held", "a");
		Claim held = this.engine.claim("engine_test", request, this::createResource);
		assertThat(held).isInstanceOf(Claim.Acquired.class);
		Inserting operation = new Inserting();

		Execution<String> second = this.engine.execute(operation, request);

		assertThat(second).isInstanceOf(Execution.InProgress.class);
		assertThat(operation.inserts).hasValue(1);
		assertThat(operation.acts).hasValue(0);
		assertThat(operation.insertedRows()).isZero();
	}

	/**
	 * A guard's condition that is not true refuses the claim in one statement with the
	 * guard's own exception, and neither record nor resource is written.
	 */
	@Test
	void aGuardsConditionRefusesTheClaimInOneStatementBeforeAnythingIsWritten() {
		Inserting operation = new Inserting();
		this.scope = new IdempotencyScope("guarded-" + UUID.randomUUID().toString().substring(0, 8));

		assertThatIllegalStateException().isThrownBy(() -> this.engine.execute(operation, request("guarded", "a")))
			.withMessage("refused by the guard's condition");

		assertThat(records("guarded")).isZero();
		assertThat(operation.inserts).hasValue(1);
		assertThat(operation.acts).hasValue(0);
		assertThat(operation.insertedRows()).isZero();
	}

	/**
	 * An operation with its own authorization needs a claim transaction: it is never
	 * claimed in one statement, and its create step runs in the transaction.
	 */
	@Test
	void anOperationWithItsOwnAuthorizationIsClaimedInATransactionEvenIfItDeclaresItsResource() {
		Inserting operation = new Inserting() {
			@Override
			public Runnable authorization() {
				return () -> {
				};
			}
		};

		Execution<String> first = this.engine.execute(operation, request("authorizing", "a"));

		assertThat(first).isInstanceOf(Execution.Completed.class);
		assertThat(operation.inserts).hasValue(0);
		assertThat(operation.creates).hasValue(1);
	}

	/**
	 * Sixteen threads released together claim one fresh key in one statement each: one
	 * inserts the record and the resource, and one acts.
	 */
	@Test
	void concurrentClaimsInOneStatementOfOneKeyInsertOneResourceAndActOnce() throws Exception {
		Inserting operation = new Inserting();
		ClaimRequest request = request("storm", "a");
		int threads = 16;
		List<Execution<String>> outcomes = executeTogether(operation, Collections.nCopies(threads, request));

		assertThat(outcomes).allSatisfy((outcome) -> assertThat(outcome).isInstanceOfAny(Execution.Completed.class,
				Execution.InProgress.class));

		assertThat(operation.acts).hasValue(1);
		assertThat(records("storm")).isOne();
		assertThat(this.jdbc
			.sql("SELECT count(*) FROM engine_test_resources r JOIN idempotency_records i "
					+ "ON i.resource_id = r.id WHERE i.scope = ? AND i.idempotency_key = ?")
			.params(this.scope.value(), "storm")
			.query(Long.class)
			.single()).isOne();
		// A thread that starts after another read the completed record from the database
		// is answered from the replay cache and never offers an insert.
		assertThat(operation.inserts.get()).isBetween(1, threads);
		assertThat(operation.insertedRows()).isOne();
	}

	/**
	 * docs/design.md section 4, "The claim in one statement": a resource declared after a
	 * claim update is claimed in one statement; the update runs once, the resource is
	 * inserted with what it returned and takes it, and no claim transaction runs.
	 */
	@Test
	void aFreshKeyIsClaimedInOneStatementWithItsClaimUpdateAndTheResourceReadsWhatItReturned() {
		UUID stock = stock(3);
		Reserving operation = new Reserving(stock);

		Execution<String> first = this.engine.execute(operation, request("reserving", "a"));

		assertThat(first).isInstanceOfSatisfying(Execution.Completed.class,
				(completed) -> assertThat(completed.replayed()).isFalse());
		assertThat(operation.creates).hasValue(0);
		assertThat(left(stock)).isEqualTo(2);
		assertThat(operation.built).containsExactly(2);
		assertThat(this.jdbc.sql("SELECT finishes FROM engine_test_resources WHERE id = ?")
			.param(operation.ids.get(0))
			.query(Integer.class)
			.single()).isEqualTo(2);
		assertThat(status("reserving")).isEqualTo("COMPLETED");
	}

	/**
	 * A claim update that matches no row refuses the claim with the operation's reason:
	 * the statement undoes itself, so neither record nor resource is written and the
	 * update changes nothing; no claim transaction runs, and the key stays free.
	 */
	@Test
	void aClaimUpdateThatMatchesNoRowRefusesTheClaimAndTheStatementLeavesNothing() {
		UUID stock = stock(0);
		Reserving operation = new Reserving(stock);

		Execution<String> refused = this.engine.execute(operation, request("sold-out", "a"));

		assertThat(refused).isInstanceOfSatisfying(Execution.Refused.class,
				(answer) -> assertThat(answer.reason()).isEqualTo("sold out"));
		assertThat(records("sold-out")).isZero();
		assertThat(operation.insertedRows()).isZero();
		assertThat(operation.creates).hasValue(0);
		assertThat(operation.acts).hasValue(0);
		assertThat(left(stock)).isZero();
		assertThat(this.meters.counter("payonce.idempotency.claims", "operation", "engine_test", "outcome", "refused")
			.count()).isPositive();
	}

	/**
	 * A refusal that no longer holds when it is read (the row changed after the statement
	 * undid itself: here the stock is given back meanwhile) answers {@code null}, and the
	 * engine claims again in a transaction, whose claim update takes from the stock: no
	 * refusal for a reason that is gone.
	 */
	@Test
	void aClaimUpdateWhoseRefusalNoLongerHoldsIsClaimedAgainInATransaction() {
		UUID stock = stock(0);
		Reserving operation = new Reserving(stock) {
			@Override
			public @Nullable String refusal() {
				IdempotencyEngineIntegrationTests.this.jdbc
					.sql("UPDATE engine_test_stock SET left_over = 1 WHERE id = ?")
					.param(stock)
					.update();
				return null;
			}
		};

		Execution<String> answer = this.engine.execute(operation, request("given-back", "a"));

		assertThat(answer).isInstanceOf(Execution.Completed.class);
		assertThat(operation.creates).hasValue(1);
		assertThat(left(stock)).isZero();
		assertThat(records("given-back")).isOne();
		assertThat(status("given-back")).isEqualTo("COMPLETED");
	}

	/**
	 * A claim update whose precheck is not true inserts nothing in the one statement (no
	 * undo), and the claim is made in a transaction, whose claim update refuses: the same
	 * refusal, nothing stored.
	 */
	@Test
	void aClaimUpdateWhosePrecheckFailsIsRefusedInATransactionWithoutAnUndo() {
		UUID stock = stock(0);
		Reserving operation = new Reserving(stock);
		operation.prechecked = true;

		Execution<String> refused = this.engine.execute(operation, request("prechecked", "a"));

		assertThat(refused).isInstanceOfSatisfying(Execution.Refused.class,
				(answer) -> assertThat(answer.reason()).isEqualTo("sold out"));
		assertThat(operation.creates).hasValue(1);
		assertThat(records("prechecked")).isZero();
		assertThat(operation.insertedRows()).isZero();
		assertThat(left(stock)).isZero();
	}

	/**
	 * With a precheck that holds, the claim is made in one statement as without one, and
	 * the resource still reads what the update returned.
	 */
	@Test
	void aClaimUpdateWhosePrecheckHoldsIsClaimedInOneStatement() {
		UUID stock = stock(2);
		Reserving operation = new Reserving(stock);
		operation.prechecked = true;

		Execution<String> first = this.engine.execute(operation, request("prechecked-ok", "a"));

		assertThat(first).isInstanceOf(Execution.Completed.class);
		assertThat(operation.creates).hasValue(0);
		assertThat(operation.built).containsExactly(1);
		assertThat(left(stock)).isOne();
	}

	/**
	 * The claim stands only if the update updated exactly one row: one that updates two
	 * is undone as a whole, both rows as they were.
	 */
	@Test
	void aClaimUpdateThatUpdatesTwoRowsIsUndoneAsAWhole() {
		UUID stock = stock(5);
		UUID twin = stock(5);
		Reserving operation = new Reserving(stock, twin);

		Execution<String> refused = this.engine.execute(operation, request("two-rows", "a"));

		assertThat(refused).isInstanceOf(Execution.Refused.class);
		assertThat(records("two-rows")).isZero();
		assertThat(operation.insertedRows()).isZero();
		assertThat(left(stock)).isEqualTo(5);
		assertThat(left(twin)).isEqualTo(5);
	}

	/**
	 * A key that already has a record is never claimed again: its claim update does not
	 * run, so a retry of a claimed key reserves nothing more.
	 */
	@Test
	void aKeyAlreadyHeldRunsNoClaimUpdate() {
		ClaimRequest request = request("held-reserving", "a");
		assertThat(this.engine.claim("engine_test", request, this::createResource)).isInstanceOf(Claim.Acquired.class);
		UUID stock = stock(3);
		Reserving operation = new Reserving(stock);

		Execution<String> second = this.engine.execute(operation, request);

		assertThat(second).isInstanceOf(Execution.InProgress.class);
		assertThat(left(stock)).isEqualTo(3);
		assertThat(operation.insertedRows()).isZero();
		assertThat(operation.acts).hasValue(0);
	}

	/**
	 * Sixteen threads released together claim one fresh key with a claim update: the
	 * update runs exactly once, one resource is inserted, one act runs.
	 */
	@Test
	void concurrentClaimsOfOneKeyMakeTheClaimUpdateOnce() throws Exception {
		UUID stock = stock(100);
		Reserving operation = new Reserving(stock);
		ClaimRequest request = request("storm-reserving", "a");
		int threads = 16;
		List<Execution<String>> outcomes = executeTogether(operation, Collections.nCopies(threads, request));

		assertThat(outcomes).allSatisfy((outcome) -> assertThat(outcome).isInstanceOfAny(Execution.Completed.class,
				Execution.InProgress.class));

		assertThat(left(stock)).isEqualTo(99);
		assertThat(operation.acts).hasValue(1);
		assertThat(operation.insertedRows()).isOne();
		assertThat(records("storm-reserving")).isOne();
	}

	/**
	 * Sixteen threads released together, each with its own key, take from a stock of
	 * five: exactly five claims stand, the others are refused, and the stock never goes
	 * below zero.
	 */
	@Test
	void concurrentClaimsOfManyKeysNeverTakeMoreThanTheClaimUpdateAllows() throws Exception {
		UUID stock = stock(5);
		Reserving operation = new Reserving(stock);
		int threads = 16;
		List<ClaimRequest> requests = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			requests.add(request("many-" + i, "a"));
		}

		List<Execution<String>> outcomes = executeTogether(operation, requests);

		assertThat(outcomes).filteredOn(Execution.Completed.class::isInstance).hasSize(5);
		assertThat(outcomes).filteredOn(Execution.Refused.class::isInstance).hasSize(threads - 5);
		assertThat(left(stock)).isZero();
		assertThat(operation.insertedRows()).isEqualTo(5);
		assertThat(operation.creates).hasValue(0);
	}

	/**
	 * Runs each request on its own thread, all released together, and returns their
	 * outcomes in order.
	 */
	private List<Execution<String>> executeTogether(IdempotentOperation<?, String> operation,
			List<ClaimRequest> requests) throws Exception {
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService pool = Executors.newFixedThreadPool(requests.size());
		try {
			List<Future<Execution<String>>> answers = new ArrayList<>();
			for (ClaimRequest request : requests) {
				answers.add(pool.submit(() -> {
					start.await();
					return this.engine.execute(operation, request);
				}));
			}
			start.countDown();
			List<Execution<String>> outcomes = new ArrayList<>();
			for (Future<Execution<String>> answer : answers) {
				outcomes.add(answer.get(30, TimeUnit.SECONDS));
			}
			return outcomes;
		}
		finally {
			pool.shutdownNow();
		}
	}

	private UUID stock(int left) {
		this.jdbc.sql("CREATE TABLE IF NOT EXISTS engine_test_stock (id uuid PRIMARY KEY, tag uuid, left_over integer)")
			.update();
		UUID id = UUID.randomUUID();
		this.jdbc.sql("INSERT INTO engine_test_stock (id, tag, left_over) VALUES (?, ?, ?)")
			.params(id, id, left)
			.update();
		return id;
	}

	private int left(UUID stock) {
		return this.jdbc.sql("SELECT left_over FROM engine_test_stock WHERE id = ?")
			.param(stock)
			.query(Integer.class)
			.single();
	}

	/**
	 * An operation whose claim update takes one from a stock row (or from every row of
	 * the given ids) and inserts its resource with what is left; refused "sold out" when
	 * nothing is left.
	 */
	private class Reserving extends Inserting {

		final List<Integer> built = new CopyOnWriteArrayList<>();

		private final UUID[] stocks;

		/** Whether the claim update carries a precheck of the stock. */
		boolean prechecked;

		Reserving(UUID... stocks) {
			super(null);
			this.stocks = stocks;
		}

		@Override
		public ResourceTable<EngineTestResource> resource() {
			return this.prechecked ? IdempotencyEngineIntegrationTests.this.reservingPrechecked
					: IdempotencyEngineIntegrationTests.this.reserving;
		}

		/** Why the claim update matched no row; {@code null} if that no longer holds. */
		@Override
		public @Nullable String refusal() {
			return "sold out";
		}

		@Override
		public Object[] claimArguments(EngineTestResource resource) {
			return this.prechecked ? new Object[] { this.stocks, this.stocks } : new Object[] { this.stocks };
		}

		@Override
		public Action<String> act(EngineTestResource resource) {
			this.built.add(resource.finishes);
			return super.act(resource);
		}

	}

	/**
	 * An operation that declares its resource, a row of {@code engine_test_resources}
	 * tagged {@code engine_test_inserting}, which the engine inserts, reloads and writes;
	 * its act step finishes it. It counts its claims by the way they were made: in one
	 * statement ({@link #inserts}) or in a claim transaction ({@link #creates}).
	 */
	private class Inserting implements IdempotentOperation<EngineTestResource, String> {

		final AtomicInteger inserts = new AtomicInteger();

		final AtomicInteger creates = new AtomicInteger();

		final AtomicInteger acts = new AtomicInteger();

		final List<UUID> ids = new CopyOnWriteArrayList<>();

		private final @Nullable ResourceTable<EngineTestResource> table;

		Inserting() {
			this(IdempotencyEngineIntegrationTests.this.inserting);
		}

		Inserting(@Nullable ResourceTable<EngineTestResource> table) {
			this.table = table;
		}

		/** How many of the resources this operation created exist. */
		long insertedRows() {
			return IdempotencyEngineIntegrationTests.this.jdbc
				.sql("SELECT count(*) FROM engine_test_resources WHERE id = ANY (?)")
				.param(this.ids.toArray(UUID[]::new))
				.query(Long.class)
				.single();
		}

		@Override
		public String name() {
			return "engine_test";
		}

		@Override
		public @Nullable ResourceTable<EngineTestResource> resource() {
			return this.table;
		}

		@Override
		public EngineTestResource create(UUID resourceId) {
			if (TransactionSynchronizationManager.isActualTransactionActive()) {
				this.creates.incrementAndGet();
			}
			else {
				this.inserts.incrementAndGet();
			}
			this.ids.add(resourceId);
			return new EngineTestResource(resourceId, "engine_test_inserting");
		}

		@Override
		public Action<String> act(EngineTestResource resource) {
			this.acts.incrementAndGet();
			return new Action.Finish<>(Objects.requireNonNull(resource()).finish(resource, (moved) -> {
				moved.state = "FINISHED";
				return new StoredResponse(201, Map.of("Content-Type", "application/json"),
						"{\"id\":\"" + moved.id + "\"}");
			}));
		}

	}

	/**
	 * A guard that refuses every scope named {@code guarded-...}, and nothing else; in a
	 * claim transaction by its check, in a claim in one statement by its condition (which
	 * also refuses a statement that does not run at READ COMMITTED); and the declarations
	 * of the test operations' resources. Imported, and not annotated: a nested
	 * configuration class would join this class's context configuration alone, and
	 * UnfencedCompletionIntegrationTests could not share the context.
	 */
	static class Guarded {

		@Bean
		ClaimGuard refuseGuardedScopes() {
			return new ClaimGuard() {

				@Override
				public void check(IdempotencyScope scope, String operation) {
					if (scope.value().startsWith("guarded-")) {
						throw new IllegalStateException("refused by the guard");
					}
				}

				@Override
				public String condition() {
					return "? NOT LIKE 'guarded-%' AND current_setting('transaction_isolation') = 'read committed'";
				}

				@Override
				public Object[] arguments(IdempotencyScope scope, String operation) {
					return new Object[] { scope.value() };
				}

				@Override
				public void refuse() {
					throw new IllegalStateException("refused by the guard's condition");
				}

			};
		}

		@Bean
		ResourceTable<EngineTestResource> inserting() {
			return ResourceTable.of(EngineTestResource.class);
		}

		@Bean
		ResourceTable<EngineTestResource> reserving() {
			return ResourceTable.of(EngineTestResource.class)
				.claimUpdate("engine_test_stock", "left_over = left_over - 1", null, "id = ANY (?) AND left_over > 0",
						Map.of("finishes", "left_over"), null);
		}

		@Bean
		ResourceTable<EngineTestResource> reservingPrechecked() {
			return ResourceTable.of(EngineTestResource.class)
				.claimUpdate("engine_test_stock", "left_over = left_over - 1", null, "id = ANY (?) AND left_over > 0",
						Map.of("finishes", "left_over"),
						"EXISTS (SELECT 1 FROM engine_test_stock WHERE id = ANY (?) AND left_over > 0)");
		}

		@Bean
		ResourceTable<EngineTestResource> settling() {
			return ResourceTable.of(EngineTestResource.class)
				.completionUpdate("engine_test_stock", "left_over = left_over + 1", "id = ?",
						(resource) -> settledStock.apply(resource));
		}

	}

	/**
	 * docs/design.md section 3: the pool keeps every session at READ COMMITTED, so the
	 * engine declares nothing per transaction (no
	 * {@code SHOW TRANSACTION ISOLATION LEVEL} round trip) and still runs its claim (in a
	 * transaction or in one statement) and completion at READ COMMITTED when the
	 * database's default is SERIALIZABLE.
	 */
	@Test
	void claimAndCompletionRunAtReadCommittedWithoutDeclaringItWhateverTheDatabaseDefault() {
		assertThat(this.engine.declaresIsolation()).isFalse();
		String database = this.jdbc.sql("SELECT current_database()").query(String.class).single();
		this.jdbc.sql("ALTER DATABASE \"" + database + "\" SET default_transaction_isolation = 'serializable'")
			.update();
		try {
			freshConnections();
			List<String> levels = new CopyOnWriteArrayList<>();
			Claim claim = this.engine.claim("engine_test", request("levels", "a"), (resourceId) -> {
				levels.add(transactionIsolation());
				return resourceId;
			});
			assertThat(claim).isInstanceOf(Claim.Acquired.class);
			Optional<StoredResponse> stored = this.engine.complete(((Claim.Acquired) claim).lease(), (resourceId) -> {
				levels.add(transactionIsolation());
				return new StoredResponse(201, Map.of("Content-Type", "application/json"), "{}");
			});

			assertThat(stored).isPresent();
			assertThat(levels).containsExactly("read committed", "read committed");
			// The claim in one statement runs at the session's level: the guard's
			// condition refuses any other.
			Inserting inserting = new Inserting();
			assertThat(this.engine.execute(inserting, request("levels-at-once", "a")))
				.isInstanceOf(Execution.Completed.class);
			assertThat(inserting.insertedRows()).isOne();
			assertThat(this.jdbc.sql("""
					SELECT array_to_string(setconfig, ',') FROM pg_db_role_setting s
					JOIN pg_database d ON d.oid = s.setdatabase
					WHERE d.datname = current_database() AND s.setrole = 0""").query(String.class).single())
				.contains("default_transaction_isolation=serializable");
		}
		finally {
			this.jdbc.sql("ALTER DATABASE \"" + database + "\" RESET default_transaction_isolation").update();
			freshConnections();
		}
	}

	private String transactionIsolation() {
		return this.jdbc.sql("SHOW transaction_isolation").query(String.class).single();
	}

	/** Pooled connections keep the session defaults they started with: replace them. */
	private void freshConnections() {
		((HikariDataSource) this.dataSource).getHikariPoolMXBean().softEvictConnections();
	}

	private ClaimRequest request(String key, String body) {
		return new ClaimRequest(this.scope, new IdempotencyKey(key),
				RequestFingerprint.of("POST", "/engine-test", Map.of("body", body)));
	}

	private long records(String key) {
		return this.jdbc.sql("SELECT count(*) FROM idempotency_records WHERE scope = ? AND idempotency_key = ?")
			.params(this.scope.value(), key)
			.query(Long.class)
			.single();
	}

	private int attempt(String key) {
		return this.jdbc.sql("SELECT attempt FROM idempotency_records WHERE scope = ? AND idempotency_key = ?")
			.params(this.scope.value(), key)
			.query(Integer.class)
			.single();
	}

	private String status(String key) {
		return this.jdbc.sql("SELECT status FROM idempotency_records WHERE scope = ? AND idempotency_key = ?")
			.params(this.scope.value(), key)
			.query(String.class)
			.single();
	}

	private String state(UUID resourceId) {
		return this.jdbc.sql("SELECT state FROM engine_test_resources WHERE id = ?")
			.param(resourceId)
			.query(String.class)
			.single();
	}

	private long resources(String operation, String state) {
		return this.jdbc.sql("""
				SELECT count(*) FROM engine_test_resources r
				JOIN idempotency_records i ON i.resource_id = r.id
				WHERE i.scope = ? AND r.operation = ? AND r.state = ?""")
			.params(this.scope.value(), operation, state)
			.query(Long.class)
			.single();
	}

}
