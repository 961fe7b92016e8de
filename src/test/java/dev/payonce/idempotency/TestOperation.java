package dev.payonce.idempotency;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.idempotency.IdempotentOperation.Action;
import dev.payonce.idempotency.IdempotentOperation.FinishStep;

/**
 * A test-only operation that drives the engine without payments: its resource is a row of
 * {@code engine_test_resources}, created by the claim step inside the claim transaction
 * and marked {@code FINISHED} by the finish step inside the fenced completion
 * transaction. It counts every step, can hold its act step on a latch, and decides each
 * act with a function the test supplies.
 */
final class TestOperation implements IdempotentOperation<UUID, String> {

	static final String CREATE_TABLE = """
			CREATE TABLE IF NOT EXISTS engine_test_resources (
			    id uuid PRIMARY KEY, operation varchar(32) NOT NULL, state varchar(16) NOT NULL, finishes integer NOT NULL)
			""";

	final AtomicInteger creates = new AtomicInteger();

	final AtomicInteger loads = new AtomicInteger();

	final AtomicInteger acts = new AtomicInteger();

	final AtomicInteger finishes = new AtomicInteger();

	private final String name;

	private final JdbcClient jdbc;

	private volatile boolean refuse;

	private volatile boolean unauthorized;

	private volatile Function<Integer, Boolean> release = (act) -> false;

	private volatile Duration actBudget = Duration.ZERO;

	private volatile Runnable afterCreate = () -> {
	};

	private volatile CountDownLatch actEntered = new CountDownLatch(0);

	private volatile CountDownLatch actMayLeave = new CountDownLatch(0);

	TestOperation(String name, JdbcClient jdbc) {
		this.name = name;
		this.jdbc = jdbc;
	}

	/** The claim step refuses after writing its resource, which must be rolled back. */
	TestOperation refusing() {
		this.refuse = true;
		return this;
	}

	/** The request's own check refuses inside the claim transaction. */
	TestOperation unauthorized() {
		this.unauthorized = true;
		return this;
	}

	/**
	 * The act step declares {@code budget} as its longest run, and the next claim step
	 * runs {@code pause} once it has written its resource (a stall between the claim and
	 * the act).
	 */
	TestOperation withActBudget(Duration budget, Runnable pause) {
		this.actBudget = budget;
		this.afterCreate = pause;
		return this;
	}

	/** The act step releases the lease on the acts for which {@code release} is true. */
	TestOperation releasingWhen(Function<Integer, Boolean> release) {
		this.release = release;
		return this;
	}

	/**
	 * The next act step signals {@code entered} and waits for {@code mayLeave} before it
	 * decides.
	 */
	TestOperation holdingNextAct(CountDownLatch entered, CountDownLatch mayLeave) {
		this.actEntered = entered;
		this.actMayLeave = mayLeave;
		return this;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public Runnable authorization() {
		return () -> {
			if (this.unauthorized) {
				throw new IllegalStateException("refused by the request's own check");
			}
		};
	}

	@Override
	public @Nullable UUID create(UUID resourceId) {
		this.creates.incrementAndGet();
		this.jdbc.sql("INSERT INTO engine_test_resources (id, operation, state, finishes) VALUES (?, ?, 'CREATED', 0)")
			.params(resourceId, this.name)
			.update();
		Runnable pause = this.afterCreate;
		this.afterCreate = () -> {
		};
		pause.run();
		return this.refuse ? null : resourceId;
	}

	@Override
	public String refusal() {
		return "refused by the test";
	}

	@Override
	public UUID load(UUID resourceId) {
		this.loads.incrementAndGet();
		return resourceId;
	}

	@Override
	public Duration actBudget() {
		return this.actBudget;
	}

	@Override
	public Action<String> act(UUID resourceId) {
		int act = this.acts.incrementAndGet();
		CountDownLatch entered = this.actEntered;
		CountDownLatch mayLeave = this.actMayLeave;
		this.actEntered = new CountDownLatch(0);
		this.actMayLeave = new CountDownLatch(0);
		entered.countDown();
		try {
			if (!mayLeave.await(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("The test never let the act step leave");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		if (this.release.apply(act)) {
			return new Action.Release<>("released by the test");
		}
		return new Action.Finish<>(finish());
	}

	/** Marks the resource FINISHED and renders a 201 naming it and the act. */
	FinishStep finish() {
		return (resourceId) -> {
			this.finishes.incrementAndGet();
			this.jdbc.sql("UPDATE engine_test_resources SET state = 'FINISHED', finishes = finishes + 1 WHERE id = ?")
				.param(resourceId)
				.update();
			return new StoredResponse(201, Map.of("Content-Type", "application/json"),
					"{\"id\":\"" + resourceId + "\",\"act\":" + this.acts.get() + "}");
		};
	}

}
