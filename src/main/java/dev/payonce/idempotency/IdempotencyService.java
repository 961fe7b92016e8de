package dev.payonce.idempotency;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The idempotency engine: runs an {@link IdempotentOperation} at most once per (scope,
 * idempotency key) in PostgreSQL (docs/design.md sections 3 and 4). {@link #execute} is
 * the one entry point; an operation supplies only its steps.
 *
 * <p>
 * Guarantees:
 * <ul>
 * <li>The claim is one {@code INSERT ... ON CONFLICT DO NOTHING} in its own short
 * transaction, together with every {@link ClaimGuard}, the operation's
 * {@link IdempotentOperation#authorize} and its claim step (which creates the resource),
 * committed before the act step runs; the act step runs outside any transaction and
 * outside any row lock. No unique violation is ever raised or caught. A fresh key of an
 * operation that offers an {@link IdempotentOperation#insert}, with every guard offering
 * a {@link ClaimGuard#condition}, is claimed with one auto-committed statement that keeps
 * the same guarantees (docs/design.md section 4, "The claim in one statement").</li>
 * <li>Of any number of concurrent claims of one (scope, key), on any number of
 * application instances sharing the database, exactly one acts while its lease runs.
 * Leases, expiries and the stale-lease test are judged by the database's clock
 * ({@code statement_timestamp()}), never an instance's, so instances need not agree on
 * the time (docs/design.md section 4, "One clock for leases").</li>
 * <li>A key names one operation per scope: the same key sent to another operation, or
 * with another request fingerprint, is {@link Execution.KeyReused} and nothing
 * executes.</li>
 * <li>An expired lease is taken over by incrementing the attempt number, and the resource
 * is reloaded with the same id; completion and release are fenced by the attempt, so a
 * stale attempt changes nothing.</li>
 * <li>A completed record is replayed until it expires; an expired completed record is
 * removed and the key starts a new operation. Completed records once read are replayed
 * from a bounded in-process cache ({@code payonce.idempotency.replay-cache-size}) until
 * they expire.</li>
 * </ul>
 * Methods must not be called inside a caller's transaction: each one commits on its own.
 * Each transaction runs at READ COMMITTED: the pool keeps every session there
 * ({@link SessionIsolation}) or, when it is not set up to, each transaction declares the
 * level. A serialization failure (SQLSTATE {@code 40001}) or deadlock (SQLSTATE
 * {@code 40P01}) is retried up to {@value #MAX_TRANSIENT_RETRIES} times after a short
 * jittered pause (nothing of the aborted try committed, so the claim step and finish step
 * simply run again); a claim that still fails is answered in progress, never as a
 * database outage.
 */
@Service
public class IdempotencyService {

	private static final Logger log = LoggerFactory.getLogger(IdempotencyService.class);

	private static final Pattern OPERATION_NAME = Pattern.compile("[a-z_]{1,32}");

	/**
	 * Rounds of read-then-act before answering "in progress"; each round is a real race
	 * lost.
	 */
	private static final int MAX_CLAIM_ROUNDS = 5;

	/** First and longest pause between polls while waiting for an in-progress request. */
	private static final Duration MIN_POLL = Duration.ofMillis(20);

	private static final Duration MAX_POLL = Duration.ofMillis(200);

	/**
	 * Claim updates made again in one claim transaction while the operation's refusal
	 * reads that they would now match.
	 */
	private static final int CLAIM_UPDATE_RETRIES = 3;

	/** Retries of a transaction that failed with SQLSTATE 40001 or 40P01. */
	static final int MAX_TRANSIENT_RETRIES = 4;

	/** The longest pause before such a retry; each pause is random up to it. */
	private static final Duration MAX_TRANSIENT_PAUSE = Duration.ofMillis(25);

	private final IdempotencyRecords records;

	private final RecordRetention retention;

	private final CompletedResponses completed;

	private final TransactionTemplate transactions;

	private final boolean declaresIsolation;

	private final IdempotencyProperties properties;

	private final Clock clock;

	private final IdempotencyMetrics metrics;

	private final List<ClaimGuard> guards;

	IdempotencyService(IdempotencyRecords records, RecordRetention retention, CompletedResponses completed,
			PlatformTransactionManager transactionManager, DataSource dataSource, IdempotencyProperties properties,
			Clock clock, IdempotencyMetrics metrics, List<ClaimGuard> guards, List<ResourceTable<?>> resources,
			JdbcClient jdbc, MeterRegistry meters) {
		this.records = records;
		this.retention = retention;
		this.completed = completed;
		this.transactions = new TransactionTemplate(transactionManager);
		SessionIsolation.requireAutoCommit(dataSource);
		// The claim's guarantees are argued for READ COMMITTED (ON CONFLICT DO NOTHING
		// then a fresh read of the winner's row), whatever the database's default is.
		// Declared per transaction it costs a SHOW TRANSACTION ISOLATION LEVEL round trip
		// each time (Spring asks the driver for the session's level), so it is declared
		// only when the pool does not pin every session to it.
		this.declaresIsolation = !SessionIsolation.pinnedToReadCommitted(dataSource);
		if (this.declaresIsolation) {
			log.info("Engine transactions declare READ COMMITTED each time: the connection pool is not set up to "
					+ "keep every session at READ COMMITTED (docs/design.md section 3)");
			this.transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
		}
		this.properties = properties;
		this.clock = clock;
		this.metrics = metrics;
		this.guards = List.copyOf(guards);
		// Every declared resource's statements, built once (docs/design.md section 4): a
		// malformed declaration fails the start, not a request.
		ClaimDeadline deadline = ClaimDeadline.of(dataSource);
		for (ResourceTable<?> resource : resources) {
			prepare(resource, jdbc, deadline);
		}
		Gauge.builder("payonce.idempotency.leases.expired", this, IdempotencyService::countExpiredLeases)
			.description(
					"IN_PROGRESS idempotency records whose lease has ended: work left for a retry or the reconciler")
			.register(meters);
		Gauge.builder("payonce.idempotency.leases.expired.oldest", this, IdempotencyService::oldestExpiredLeaseSeconds)
			.description("How long ago the longest-ended lease of an IN_PROGRESS record ended; 0 if none has. "
					+ "Above stale-after plus a few reconciler intervals, the reconciler is not finishing it")
			.baseUnit("seconds")
			.register(meters);
	}

	private <R> void prepare(ResourceTable<R> resource, JdbcClient jdbc, ClaimDeadline deadline) {
		resource.prepare(new PreparedResource<>(resource, jdbc, this.records, this.guards, deadline));
	}

	/**
	 * Runs {@code operation} at most once for the request's key: claim (creating the
	 * resource in the claim transaction), act outside every transaction, then complete
	 * fenced or release; or answer what an earlier request with the key decided.
	 * @param <R> the operation's resource
	 * @param <T> the operation's reason type
	 * @param operation the operation's steps
	 * @param request the scope, key and request fingerprint
	 * @return what happened, for the caller to render
	 * @throws org.springframework.dao.DataAccessException if the database fails; the key
	 * is then either unclaimed or held by a lease that a later retry takes over
	 */
	@SuppressWarnings("unchecked")
	public <R, T> Execution<T> execute(IdempotentOperation<R, T> operation, ClaimRequest request) {
		String name = operationName(operation.name());
		ResourceTable<R> declared = operation.resource();
		PreparedResource<R> resource = (declared != null) ? declared.prepared() : null;
		Claim claim = claim(name, request, new Steps<>(operation, resource));
		return switch (claim) {
			case Claim.Replay replay -> new Execution.Completed<>(replay.response(), true);
			case Claim.Mismatch mismatch -> new Execution.KeyReused<>();
			case Claim.InProgress inProgress -> new Execution.InProgress<>(inProgress.retryAfter());
			case Claim.Refused refused -> new Execution.Refused<>((T) refused.reason());
			// A fresh claim just created the resource; only a takeover reloads it.
			case Claim.Acquired acquired ->
				act(operation, acquired.lease(), !acquired.takeover() ? (R) acquired.created() : (resource != null)
						? resource.load(acquired.lease().resourceId()) : operation.load(acquired.lease().resourceId()));
		};
	}

	private <R, T> Execution<T> act(IdempotentOperation<R, T> operation, Lease lease, R resource) {
		if (this.clock.instant().plus(operation.actBudget()).isAfter(lease.lockedUntil())) {
			// Paused since the claim: the act could outlive the lease and overlap a
			// takeover's. Not acted; the next attempt acts under a lease of its own.
			log.warn(
					"Not acted: too little of the lease left ({} needed); released for a retry: operation={} "
							+ "resource={} attempt={}",
					operation.actBudget(), lease.operation(), lease.resourceId(), lease.attempt());
			release(lease);
			return new Execution.InProgress<>(this.properties.retryAfter());
		}
		return switch (operation.act(resource)) {
			case Action.Finish<T> finish -> complete(lease, finish.step())
				.<Execution<T>>map((response) -> new Execution.Completed<>(response, false))
				// Another attempt took the key over and will complete the same resource.
				.orElseGet(() -> new Execution.InProgress<>(this.properties.retryAfter()));
			case Action.Release<T> release -> {
				release(lease, release.step());
				yield new Execution.Released<>(lease.resourceId(), release.reason(), this.properties.retryAfter());
			}
		};
	}

	/**
	 * Claims the request's key for an operation without a declared resource whose claim
	 * step is {@code create}.
	 *
	 * <p>
	 * On a fresh key the record is inserted with a lease of
	 * {@code payonce.idempotency.lease} and {@code create} runs in the same transaction,
	 * so the record and the resource commit together or not at all; a refusal rolls both
	 * back.
	 */
	Claim claim(String operation, ClaimRequest request, ClaimStep create) {
		return claim(operation, request, new Steps<>(new IdempotentOperation<Object, Object>() {
			@Override
			public String name() {
				return operation;
			}

			@Override
			public @Nullable Object create(UUID resourceId) {
				return create.create(resourceId);
			}

			@Override
			public Object refusal() {
				return "refused by the claim step";
			}

			@Override
			public Action<Object> act(Object resource) {
				throw new UnsupportedOperationException("Claimed only");
			}
		}, null));
	}

	/**
	 * Claims the request's key for {@code operation} as {@link #execute} does, without
	 * acting.
	 */
	<R, T> Claim claim(IdempotentOperation<R, T> operation, ClaimRequest request) {
		ResourceTable<R> declared = operation.resource();
		return claim(operationName(operation.name()), request,
				new Steps<>(operation, (declared != null) ? declared.prepared() : null));
	}

	private Claim claim(String operation, ClaimRequest request, Steps<?, ?> steps) {
		Claim claim = claimWithinWait(operation, request, steps);
		this.metrics.claimed(operation, outcome(claim));
		return claim;
	}

	/** The claim step as the engine's tests call it. */
	@FunctionalInterface
	interface ClaimStep {

		/** The resource; {@code null} to refuse the claim. */
		@Nullable Object create(UUID resourceId);

	}

	/**
	 * An operation's claim steps and its prepared resource ({@code null} without one).
	 */
	private record Steps<R, T>(IdempotentOperation<R, T> operation, @Nullable PreparedResource<R> resource) {

		/** Whether a fresh key can be claimed in one statement. */
		boolean inOneStatement() {
			PreparedResource<R> prepared = this.resource;
			return prepared != null && prepared.claimsInOneStatement() && this.operation.authorization() == null;
		}

	}

	private static String outcome(Claim claim) {
		return switch (claim) {
			case Claim.Acquired acquired -> acquired.takeover() ? "takeover" : "acquired";
			case Claim.Replay replay -> "replayed";
			case Claim.Mismatch mismatch -> "mismatch";
			case Claim.InProgress inProgress -> "in_progress";
			case Claim.Refused refused -> "refused";
		};
	}

	private Claim claimWithinWait(String operation, ClaimRequest request, Steps<?, ?> steps) {
		long deadline = System.nanoTime() + this.properties.inProgressWait().toNanos();
		long pause = MIN_POLL.toNanos();
		// Only the first round may find the key free; the others poll a record.
		boolean first = true;
		while (true) {
			Claim claim = claimOnce(operation, request, steps, first);
			first = false;
			long left = deadline - System.nanoTime();
			if (!(claim instanceof Claim.InProgress) || left <= 0) {
				return claim;
			}
			// Bounded wait for the first request to finish
			// (payonce.idempotency.in-progress-wait).
			if (!pause(Math.min(pause, left))) {
				return claim;
			}
			pause = Math.min(pause * 2, MAX_POLL.toNanos());
		}
	}

	private Claim claimOnce(String operation, ClaimRequest request, Steps<?, ?> steps, boolean first) {
		Optional<CompletedResponses.Completed> cached = this.completed.find(request.scope(), request.key(),
				this.clock.instant());
		if (cached.isPresent()) {
			return cached.get().sameRequest(operation, request.fingerprint())
					? new Claim.Replay(cached.get().response()) : new Claim.Mismatch();
		}
		if (first && steps.inOneStatement() && !this.declaresIsolation) {
			Optional<Claim> claimed;
			try {
				claimed = claimInOneStatement(operation, request, steps);
			}
			catch (TransientDatabaseConflict ex) {
				log.info("Claim lost to concurrent transactions {} times; answered in progress",
						MAX_TRANSIENT_RETRIES + 1);
				return new Claim.InProgress(this.properties.retryAfter());
			}
			if (claimed.isPresent()) {
				return claimed.get();
			}
		}
		for (int round = 0; round < MAX_CLAIM_ROUNDS; round++) {
			Optional<Claim> claim;
			try {
				claim = inTransaction((status) -> {
					Optional<Claim> attempt = attemptClaim(operation, request, steps);
					if (attempt.isPresent()
							&& (attempt.get() instanceof Claim.Refused || attempt.get() instanceof Claim.InProgress)) {
						// The claim insert and whatever the claim step wrote go together.
						status.setRollbackOnly();
					}
					return attempt;
				});
			}
			catch (TransientDatabaseConflict ex) {
				log.info("Claim lost to concurrent transactions {} times; answered in progress",
						MAX_TRANSIENT_RETRIES + 1);
				return new Claim.InProgress(this.properties.retryAfter());
			}
			if (claim != null && claim.isPresent()) {
				return claim.get();
			}
		}
		return new Claim.InProgress(this.properties.retryAfter());
	}

	private static boolean pause(long nanos) {
		try {
			Thread.sleep(Duration.ofNanos(nanos));
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * The claim in one auto-committed statement (docs/design.md section 4, "The claim in
	 * one statement"): the key's record read first, every guard's condition, then the
	 * record's {@code INSERT}, the declared claim update and the resource's
	 * {@code INSERT}, each only if the key had no record. Its guarantees are the claim
	 * transaction's: a guard's condition is evaluated before the record is inserted and
	 * its locks last until the statement commits; the record and the resource commit
	 * together or not at all. A claim update that did not update exactly one row undoes
	 * the statement, and the claim is refused with the operation's refusal. A key that
	 * has a completed record is answered from it (replay or key reused), one with a live
	 * lease in progress.
	 * @return the claim; empty if it must be made in a transaction: the key's record
	 * needs a takeover or a removal, a concurrent claim inserted it meanwhile, the
	 * precheck failed, or the refusal no longer holds
	 * @throws RuntimeException a guard's refusal, nothing claimed or created
	 */
	private <R, T> Optional<Claim> claimInOneStatement(String operation, ClaimRequest request, Steps<R, T> steps) {
		PreparedResource<R> resource = Objects.requireNonNull(steps.resource());
		UUID resourceId = UUID.randomUUID();
		R created = steps.operation().create(resourceId);
		if (created == null) {
			return Optional.of(refused(steps.operation()));
		}
		Object[] claimArguments = steps.operation().claimArguments(created);
		Instant now = this.clock.instant();
		// This instance's own end of the lease: the database starts it when the statement
		// arrives, after now, so it ends no earlier than this (docs/design.md section 4,
		// "One clock for leases").
		Instant lockedUntil = now.plus(this.properties.lease());
		PreparedResource.Claimed claimed = retryingConflicts(() -> resource.claim(operation, request, resourceId, now,
				this.properties.lease(), created, claimArguments));
		if (claimed == null) {
			return Optional.empty();
		}
		if (claimed.undone()) {
			// The record was inserted but the claim update did not update exactly one
			// row:
			// the statement undid itself, and the claim is refused, unless the row
			// changed
			// since and the claim is made again in a transaction.
			T reason = steps.operation().refusal();
			return (reason != null) ? Optional.of(new Claim.Refused(reason)) : Optional.empty();
		}
		if (claimed.refusedBy() >= 0) {
			this.guards.get(claimed.refusedBy()).refuse();
			throw new IllegalStateException("A claim condition was not true and its guard refused nothing");
		}
		IdempotencyRecords.IdempotencyRecord existing = claimed.existing();
		if (existing != null) {
			return answer(operation, request, existing, now);
		}
		if (!claimed.claimed()) {
			return Optional.empty();
		}
		return Optional.of(new Claim.Acquired(
				new Lease(request.scope(), operation, request.key(), resourceId, 1, lockedUntil), false, created));
	}

	/** One round; empty when a race was lost and the caller should read again. */
	private <R, T> Optional<Claim> attemptClaim(String operation, ClaimRequest request, Steps<R, T> steps) {
		for (ClaimGuard guard : this.guards) {
			guard.check(request.scope(), operation);
		}
		Runnable authorization = steps.operation().authorization();
		if (authorization != null) {
			authorization.run();
		}
		Instant now = this.clock.instant();
		Instant lockedUntil = now.plus(this.properties.lease());
		UUID resourceId = UUID.randomUUID();
		if (this.records.insertClaim(operation, request, resourceId, now, this.properties.lease())) {
			Lease lease = new Lease(request.scope(), operation, request.key(), resourceId, 1, lockedUntil);
			R created = steps.operation().create(resourceId);
			return Optional.of((created != null) ? created(lease, steps, created) : refused(steps.operation()));
		}
		var existing = this.records.find(request);
		if (existing.isEmpty()) {
			return Optional.empty();
		}
		var record = existing.get();
		if (record.expired()) {
			this.records.deleteIfExpired(request);
			return Optional.empty();
		}
		Optional<Claim> answer = answer(operation, request, record, now);
		if (answer.isPresent()) {
			return answer;
		}
		if (this.records.takeOver(request, record.attempt(), this.properties.lease())) {
			log.info("Took over expired lease: scope={} operation={} resource={} attempt={}", request.scope(),
					operation, record.resourceId(), record.attempt() + 1);
			return Optional.of(new Claim.Acquired(new Lease(request.scope(), operation, request.key(),
					record.resourceId(), record.attempt() + 1, lockedUntil), true, null));
		}
		return Optional.empty();
	}

	/** The claim step refused: why, as the operation answers. */
	private static Claim refused(IdempotentOperation<?, ?> operation) {
		Object reason = operation.refusal();
		if (reason == null) {
			throw new IllegalStateException(operation.name() + " refused a claim without a reason");
		}
		return new Claim.Refused(reason);
	}

	/**
	 * A fresh claim's resource in the claim transaction: for a declared resource, the
	 * claim update (made again, a few times at most, while its refusal no longer holds)
	 * and the resource's {@code INSERT}; otherwise the claim step wrote it.
	 */
	private <R, T> Claim created(Lease lease, Steps<R, T> steps, R resource) {
		PreparedResource<R> prepared = steps.resource();
		if (prepared == null) {
			return new Claim.Acquired(lease, false, resource);
		}
		Object[] claimArguments = steps.operation().claimArguments(resource);
		for (int again = 0;; again++) {
			int updated = prepared.updateForClaim(resource, claimArguments);
			if (updated == 1) {
				break;
			}
			T reason = steps.operation().refusal();
			if (reason != null) {
				return new Claim.Refused(reason);
			}
			if (updated > 1 || again == CLAIM_UPDATE_RETRIES) {
				// Contradicted by what the refusal reads, again and again: contention,
				// answered in progress; the claim transaction is rolled back.
				return new Claim.InProgress(this.properties.retryAfter());
			}
		}
		prepared.insert(resource);
		return new Claim.Acquired(lease, false, resource);
	}

	/**
	 * What a key's record answers without a takeover: the same request's stored response
	 * (kept in the replay cache), a key reuse, or in progress while its lease runs; empty
	 * if the record is an expired one or its lease has ended.
	 */
	private Optional<Claim> answer(String operation, ClaimRequest request, IdempotencyRecords.IdempotencyRecord record,
			Instant now) {
		if (record.expired()) {
			return Optional.empty();
		}
		if (record.completed() && record.response() != null && record.expiresIn() != null) {
			// The expiry by this instance's clock: the time left by the database's clock,
			// from now (a little later than the database read it, never earlier).
			this.completed.remember(request.scope(), request.key(), new CompletedResponses.Completed(record.operation(),
					record.fingerprint(), record.response(), now.plus(record.expiresIn()), now));
		}
		if (!record.sameRequest(operation, request.fingerprint())) {
			return Optional.of(new Claim.Mismatch());
		}
		if (record.completed() && record.response() != null) {
			return Optional.of(new Claim.Replay(record.response()));
		}
		if (record.leaseLive() && record.leaseLeft() != null) {
			return Optional.of(new Claim.InProgress(retryAfter(record.leaseLeft())));
		}
		return Optional.empty();
	}

	/**
	 * Completes the operation fenced by the lease's attempt: if another attempt has taken
	 * the record over, nothing changes and {@code finish} never runs. A plain
	 * {@link FinishStep} runs in one transaction that locks the record first, then runs
	 * {@code finish} (which updates the resource, flushes it and renders the response)
	 * and stores the response. A declared resource's finish over the act step's copy
	 * ({@link ResourceTable#finish(Object, Transition)}) is completed with one statement
	 * that holds the fence, the resource's versioned write and the stored response
	 * (docs/design.md section 4, "Completion in one statement"); if its write matched no
	 * row, nothing of it was written and it is completed the plain way, reading the
	 * resource again.
	 * @param lease the lease this attempt holds
	 * @param finish the operation's finish step; runs inside the completion transaction
	 * @return the stored response; empty if the lease was stale, or the completion lost
	 * to concurrent transactions on every retry, and nothing was stored (the lease then
	 * runs out and a retry takes the record over)
	 * @throws org.springframework.dao.DataAccessException if the database fails; the
	 * record then stays IN_PROGRESS and its lease expires for a later takeover
	 */
	Optional<StoredResponse> complete(Lease lease, FinishStep finish) {
		Optional<StoredResponse> stored;
		try {
			Optional<Optional<StoredResponse>> written = (finish instanceof ResourceFinish<?> resource)
					? completeWritten(lease, resource) : Optional.empty();
			stored = written.isPresent() ? written.get() : completeLocked(lease, finish);
		}
		catch (TransientDatabaseConflict ex) {
			log.info(
					"Completion lost to concurrent transactions {} times: scope={} operation={} resource={} attempt={}",
					MAX_TRANSIENT_RETRIES + 1, lease.scope(), lease.operation(), lease.resourceId(), lease.attempt());
			return Optional.empty();
		}
		if (stored == null || stored.isEmpty()) {
			log.warn("Stale attempt's completion rejected: scope={} operation={} resource={} attempt={}", lease.scope(),
					lease.operation(), lease.resourceId(), lease.attempt());
			return Optional.empty();
		}
		return stored;
	}

	/**
	 * The completion in one statement over the act step's copy: on its own
	 * (auto-committed) while the pool keeps sessions at READ COMMITTED (with a declared
	 * completion update the statement undoes itself unless both writes wrote); otherwise
	 * in a READ COMMITTED transaction, rolled back unless every write wrote.
	 * @return the outcome (a stored response, or empty for a stale lease); empty if the
	 * completion must read the resource again instead
	 */
	private <R> Optional<Optional<StoredResponse>> completeWritten(Lease lease, ResourceFinish<R> finish) {
		R copy = finish.read(lease.resourceId());
		if (copy == null) {
			return Optional.empty();
		}
		StoredResponse response = finish.response(copy);
		PreparedResource<R> resource = finish.resource();
		// On its own the statement runs at the session's level, which is READ COMMITTED
		// only when the pool keeps it there.
		IdempotencyRecords.Completion completion = !this.declaresIsolation ? retryingConflicts(
				() -> resource.complete(lease, copy, response, this.clock.instant(), this.properties.retention()))
				: inTransaction((status) -> {
					IdempotencyRecords.Completion attempt = resource.complete(lease, copy, response,
							this.clock.instant(), this.properties.retention());
					if (attempt == IdempotencyRecords.Completion.UNWRITTEN) {
						// An earlier write may have written: none of it stays.
						status.setRollbackOnly();
					}
					return attempt;
				});
		return switch (completion) {
			case COMPLETED -> {
				finish.written(copy, response);
				yield Optional.of(Optional.of(response));
			}
			case STALE -> Optional.of(Optional.empty());
			case UNWRITTEN -> Optional.empty();
			case null -> Optional.empty();
		};
	}

	/** The plain completion: lock the record, then finish, then store. */
	private @Nullable Optional<StoredResponse> completeLocked(Lease lease, FinishStep finish) {
		return inTransaction((status) -> {
			// Fence first: a stale attempt must not even run finish, whose resource is no
			// longer its own.
			if (!this.records.lockIfHeld(lease)) {
				return Optional.<StoredResponse>empty();
			}
			StoredResponse response = finish.finish(lease.resourceId());
			if (this.records.complete(lease, response, this.clock.instant(), this.properties.retention())) {
				return Optional.of(response);
			}
			status.setRollbackOnly();
			return Optional.<StoredResponse>empty();
		});
	}

	/**
	 * Ends the lease at once without completing, so that the next request with the key
	 * takes the record over and drives the same resource again (docs/design.md section 4,
	 * step 3). Fenced by the attempt.
	 * @return {@code true} if released; {@code false} if the lease was stale
	 */
	boolean release(Lease lease) {
		return release(lease, (resourceId) -> {
		});
	}

	/**
	 * Ends the lease at once, as {@link #release(Lease)} does, and runs {@code prepare}
	 * in the same transaction only if this lease's attempt still holds the record: a
	 * change that is safe only while no other attempt can act on the resource (for
	 * payments, a new provider key generation) never outlives the lease it was decided
	 * under.
	 * @param lease the lease this attempt holds
	 * @param prepare updates the resource; runs inside the release transaction, after the
	 * fence (again, if the transaction is retried after a transient conflict)
	 * @return {@code true} if released (and {@code prepare} committed); {@code false} if
	 * the lease was stale and nothing changed
	 */
	boolean release(Lease lease, ReleaseStep prepare) {
		Boolean released;
		try {
			released = inTransaction((status) -> {
				if (!this.records.lockIfHeld(lease)) {
					return false;
				}
				prepare.prepare(lease.resourceId());
				return this.records.release(lease);
			});
		}
		catch (TransientDatabaseConflict ex) {
			// The lease runs out by itself; a retry then takes the record over.
			log.info("Release lost to concurrent transactions: scope={} operation={} resource={} attempt={}",
					lease.scope(), lease.operation(), lease.resourceId(), lease.attempt());
			return false;
		}
		if (!Boolean.TRUE.equals(released)) {
			log.warn("Stale attempt's release rejected: scope={} operation={} resource={} attempt={}", lease.scope(),
					lease.operation(), lease.resourceId(), lease.attempt());
			return false;
		}
		return true;
	}

	/**
	 * Takes over one operation's records whose lease ended more than {@code staleAfter}
	 * ago by the database's clock, for the reconciler (docs/design.md section 4, step 5).
	 * Each returned lease is held like a fresh takeover: the caller must complete or
	 * release it. Safe to run on several instances at once: a record is taken by one of
	 * them.
	 * @return the leases taken over, attempt numbers already incremented
	 */
	List<Lease> takeOverStale(String operation, Duration staleAfter, int limit) {
		Instant lockedUntil = this.clock.instant().plus(this.properties.lease());
		List<Lease> leases = inTransaction((status) -> this.records.takeOverStale(operation, staleAfter,
				this.properties.lease(), lockedUntil, limit));
		return (leases != null) ? leases : List.of();
	}

	/**
	 * Completes one resource's IN_PROGRESS record with an outcome learned outside the act
	 * step (for payments, a provider's webhook event): takes the record over if its lease
	 * has ended (fenced like every takeover, by incrementing the attempt), then runs
	 * {@code finish} in the fenced completion transaction, exactly as {@link #execute}
	 * completes. So a webhook, a client retry and the reconciler racing on one resource
	 * produce one outcome.
	 * @param operation the operation whose record it is; another operation's record for
	 * the same resource id is never taken
	 * @param scope whose resource it is
	 * @param resourceId the resource (for payments, the payment id)
	 * @param finish the operation's finish step
	 * @return the stored response; empty if nothing was completed: the resource has no
	 * IN_PROGRESS record of the operation (it completed before), another attempt holds a
	 * live lease on it, or the completion was fenced out (the caller reloads the resource
	 * to tell which)
	 * @throws org.springframework.dao.DataAccessException if the database fails; a
	 * taken-over lease is released first, so a retry can take the record over at once
	 */
	public Optional<StoredResponse> completeResource(String operation, IdempotencyScope scope, UUID resourceId,
			FinishStep finish) {
		Instant lockedUntil = this.clock.instant().plus(this.properties.lease());
		Optional<Lease> lease = inTransaction((status) -> this.records.takeOverResource(operationName(operation), scope,
				resourceId, this.properties.lease(), lockedUntil));
		if (lease == null || lease.isEmpty()) {
			return Optional.empty();
		}
		try {
			return complete(lease.get(), finish);
		}
		catch (RuntimeException ex) {
			release(lease.get());
			throw ex;
		}
	}

	/**
	 * Counts IN_PROGRESS records whose lease has ended by the database's clock: work a
	 * crash or an unknown outcome left for a retry or the reconciler.
	 * @return the number of records past their lease now
	 */
	public long countExpiredLeases() {
		return this.retention.countExpiredLeases();
	}

	/**
	 * How long ago, by the database's clock, the longest-ended lease of an IN_PROGRESS
	 * record ended.
	 * @return seconds since that lease ended, or 0 if no IN_PROGRESS record is past its
	 * lease
	 */
	public double oldestExpiredLeaseSeconds() {
		return this.retention.oldestExpiredLease().map((ago) -> ago.toMillis() / 1000.0).orElse(0.0);
	}

	/**
	 * Whether each engine transaction declares READ COMMITTED itself, because the pool
	 * does not keep every session at that level ({@link SessionIsolation}).
	 * @return {@code false} with the pool settings of {@code application.properties}
	 */
	boolean declaresIsolation() {
		return this.declaresIsolation;
	}

	/**
	 * The lease every claim and takeover holds.
	 * @return {@code payonce.idempotency.lease}
	 */
	public Duration lease() {
		return this.properties.lease();
	}

	/**
	 * The {@code Retry-After} to send when the outcome is not known yet.
	 * @return the configured {@code payonce.idempotency.retry-after}
	 */
	public Duration retryAfter() {
		return this.properties.retryAfter();
	}

	/**
	 * Runs one READ COMMITTED transaction, again after a jittered pause when PostgreSQL
	 * aborted it as a serialization failure or deadlock loser (nothing of it committed).
	 * @throws TransientDatabaseConflict when every try failed so
	 */
	private <T> @Nullable T inTransaction(TransactionCallback<T> work) {
		return retryingConflicts(() -> this.transactions.execute(work));
	}

	/**
	 * Runs {@code work} (one transaction, or one auto-committed statement) again after a
	 * jittered pause when PostgreSQL aborted it as a serialization failure or deadlock
	 * loser (nothing of it committed).
	 * @throws TransientDatabaseConflict when every try failed so
	 */
	private <T> @Nullable T retryingConflicts(Supplier<@Nullable T> work) {
		for (int attempt = 0;; attempt++) {
			try {
				return work.get();
			}
			catch (RuntimeException ex) {
				if (!isTransientConflict(ex)) {
					throw ex;
				}
				if (attempt >= MAX_TRANSIENT_RETRIES) {
					throw new TransientDatabaseConflict(ex);
				}
				if (!pause(ThreadLocalRandom.current().nextLong(1, MAX_TRANSIENT_PAUSE.toNanos()))) {
					throw new TransientDatabaseConflict(ex);
				}
			}
		}
	}

	/** SQLSTATE 40001 (serialization_failure) or 40P01 (deadlock_detected). */
	static boolean isTransientConflict(Throwable ex) {
		return IdempotencyRecords.causedBySqlState(ex, "40001", "40P01");
	}

	/**
	 * A transaction lost to concurrent ones on every try: a conflict, not an outage.
	 */
	static final class TransientDatabaseConflict extends ConcurrencyFailureException {

		TransientDatabaseConflict(Throwable cause) {
			super("Transaction aborted by concurrent transactions on every try", cause);
		}

	}

	private Duration retryAfter(Duration remaining) {
		return (remaining.compareTo(this.properties.retryAfter()) < 0) ? remaining : this.properties.retryAfter();
	}

	private static String operationName(@Nullable String name) {
		if (name == null || !isOperationName(name)) {
			throw new IllegalArgumentException("An operation's name must be 1-32 of [a-z_]");
		}
		return name;
	}

	/**
	 * Whether {@code name} is 1 to 32 of {@code [a-z_]}.
	 * @param name the candidate
	 * @return {@code true} if it is a well-formed operation name
	 */
	static boolean isOperationName(String name) {
		return OPERATION_NAME.matcher(name).matches();
	}

}
