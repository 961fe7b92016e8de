package dev.payonce.idempotency;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Claims, completes and releases idempotency keys in PostgreSQL (DESIGN.md sections 3 and
 * 4).
 *
 * <p>
 * Guarantees:
 * <ul>
 * <li>The claim is one {@code INSERT ... ON CONFLICT DO NOTHING} in its own short
 * transaction, committed before this method returns, so the caller acts (for example
 * calls a payment provider) outside any transaction and outside any row lock. No unique
 * violation is ever raised or caught.</li>
 * <li>Of any number of concurrent claims of one (client, key), on any number of
 * application instances sharing the database, exactly one gets {@link Claim.Acquired}
 * while its lease runs.</li>
 * <li>An expired lease is taken over by incrementing the attempt number; completion and
 * release are fenced by it, so a stale attempt changes nothing.</li>
 * <li>A completed record is replayed until it expires; an expired completed record is
 * removed and the key starts a new operation. Completed records once read are replayed
 * from a bounded in-process cache ({@code payonce.idempotency.replay-cache-size}) until
 * they expire.</li>
 * </ul>
 * Methods must not be called inside a caller's transaction: each one commits on its own.
 * Each transaction declares READ COMMITTED. A serialization failure (SQLSTATE
 * {@code 40001}) or deadlock (SQLSTATE {@code 40P01}) is retried up to
 * {@value #MAX_TRANSIENT_RETRIES} times after a short jittered pause; a claim that still
 * fails is answered {@link Claim.InProgress}, never as a database outage.
 */
@Service
public class IdempotencyService {

	private static final Logger log = LoggerFactory.getLogger(IdempotencyService.class);

	/**
	 * Rounds of read-then-act before answering "in progress"; each round is a real race
	 * lost.
	 */
	private static final int MAX_CLAIM_ROUNDS = 5;

	/** First and longest pause between polls while waiting for an in-progress request. */
	private static final Duration MIN_POLL = Duration.ofMillis(20);

	private static final Duration MAX_POLL = Duration.ofMillis(200);

	/** Retries of a transaction that failed with SQLSTATE 40001 or 40P01. */
	static final int MAX_TRANSIENT_RETRIES = 4;

	/** The longest pause before such a retry; each pause is random up to it. */
	private static final Duration MAX_TRANSIENT_PAUSE = Duration.ofMillis(25);

	private final IdempotencyRecords records;

	private final CompletedResponses completed;

	private final TransactionTemplate transactions;

	private final IdempotencyProperties properties;

	private final Clock clock;

	private final Map<String, Counter> claims = new HashMap<>();

	IdempotencyService(IdempotencyRecords records, CompletedResponses completed,
			PlatformTransactionManager transactionManager, IdempotencyProperties properties, Clock clock,
			MeterRegistry meters) {
		this.records = records;
		this.completed = completed;
		this.transactions = new TransactionTemplate(transactionManager);
		// The claim's guarantees are argued for READ COMMITTED (ON CONFLICT DO NOTHING
		// then a fresh read of the winner's row), whatever the database's default is.
		this.transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
		this.properties = properties;
		this.clock = clock;
		for (String outcome : List.of("acquired", "takeover", "replayed", "mismatch", "in_progress")) {
			this.claims.put(outcome,
					Counter.builder("payonce.idempotency.claims")
						.description("Claims of idempotency keys by outcome")
						.tag("outcome", outcome)
						.register(meters));
		}
		Gauge.builder("payonce.idempotency.leases.expired", this, IdempotencyService::countExpiredLeases)
			.description(
					"IN_PROGRESS idempotency records whose lease has ended: work left for a retry or the reconciler")
			.register(meters);
	}

	/**
	 * Claims the request's key.
	 *
	 * <p>
	 * On a fresh key the record is inserted with a lease of
	 * {@code payonce.idempotency.lease} and {@code createResource} runs in the same
	 * transaction, so the record and the resource (for payments, the {@code PENDING}
	 * payment) commit together or not at all.
	 * @param request the client, key, fingerprint and the id of the resource to create
	 * @param createResource creates the resource with {@link ClaimRequest#resourceId()};
	 * runs only for a fresh claim, never for a takeover or a replay
	 * @return the claim's outcome
	 * @throws org.springframework.dao.DataAccessException if the database fails; nothing
	 * is then claimed
	 */
	public Claim claim(ClaimRequest request, Runnable createResource) {
		return claim(request, () -> {
		}, createResource);
	}

	/**
	 * Claims the request's key, first running {@code authorize} in each claim
	 * transaction, before anything is read or written in it: the caller's authorisation
	 * is checked at the point of effect, where it cannot race the check (issue 15, item
	 * 1). A replay from the in-process cache, which has no effect, does not run it.
	 * @param request the client, key, fingerprint and the id of the resource to create
	 * @param authorize runs inside the claim transaction; throws to refuse, and then the
	 * transaction rolls back and nothing is claimed, created or written
	 * @param createResource as for {@link #claim(ClaimRequest, Runnable)}
	 * @return the claim's outcome
	 * @throws org.springframework.dao.DataAccessException if the database fails; nothing
	 * is then claimed
	 */
	public Claim claim(ClaimRequest request, Runnable authorize, Runnable createResource) {
		Claim claim = claimWithinWait(request, authorize, createResource);
		this.claims.get(outcome(claim)).increment();
		return claim;
	}

	private static String outcome(Claim claim) {
		return switch (claim) {
			case Claim.Acquired acquired -> acquired.takeover() ? "takeover" : "acquired";
			case Claim.Replay replay -> "replayed";
			case Claim.Mismatch mismatch -> "mismatch";
			case Claim.InProgress inProgress -> "in_progress";
		};
	}

	private Claim claimWithinWait(ClaimRequest request, Runnable authorize, Runnable createResource) {
		long deadline = System.nanoTime() + this.properties.inProgressWait().toNanos();
		long pause = MIN_POLL.toNanos();
		while (true) {
			Claim claim = claimOnce(request, authorize, createResource);
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

	private Claim claimOnce(ClaimRequest request, Runnable authorize, Runnable createResource) {
		Optional<CompletedResponses.Completed> cached = this.completed.find(request.clientId(), request.key(),
				this.clock.instant());
		if (cached.isPresent()) {
			return cached.get().fingerprint().equals(request.fingerprint()) ? new Claim.Replay(cached.get().response())
					: new Claim.Mismatch();
		}
		for (int round = 0; round < MAX_CLAIM_ROUNDS; round++) {
			Optional<Claim> claim;
			try {
				claim = inTransaction((status) -> {
					authorize.run();
					return attemptClaim(request, createResource);
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

	/** One round; empty when a race was lost and the caller should read again. */
	private Optional<Claim> attemptClaim(ClaimRequest request, Runnable createResource) {
		Instant now = this.clock.instant();
		Instant lockedUntil = now.plus(this.properties.lease());
		if (this.records.insertClaim(request, now, lockedUntil)) {
			createResource.run();
			return Optional.of(new Claim.Acquired(lease(request, request.resourceId(), 1, lockedUntil), false));
		}
		var existing = this.records.find(request);
		if (existing.isEmpty()) {
			return Optional.empty();
		}
		var record = existing.get();
		if (record.completed() && record.expiresAt() != null && !record.expiresAt().isAfter(now)) {
			this.records.deleteIfExpired(request, now);
			return Optional.empty();
		}
		if (record.completed() && record.response() != null && record.expiresAt() != null) {
			this.completed.remember(request.clientId(), request.key(),
					new CompletedResponses.Completed(record.fingerprint(), record.response(), record.expiresAt(), now));
		}
		if (!record.fingerprint().equals(request.fingerprint())) {
			return Optional.of(new Claim.Mismatch());
		}
		if (record.completed() && record.response() != null) {
			return Optional.of(new Claim.Replay(record.response()));
		}
		if (record.lockedUntil() != null && record.lockedUntil().isAfter(now)) {
			return Optional.of(new Claim.InProgress(retryAfter(now, record.lockedUntil())));
		}
		if (this.records.takeOver(request, record.attempt(), now, lockedUntil)) {
			log.info("Took over expired lease: client={} resource={} attempt={}", request.clientId(),
					record.resourceId(), record.attempt() + 1);
			return Optional
				.of(new Claim.Acquired(lease(request, record.resourceId(), record.attempt() + 1, lockedUntil), true));
		}
		return Optional.empty();
	}

	/**
	 * Completes the operation in one transaction: locks the record if the lease's attempt
	 * still holds it, runs {@code finish} (which updates the resource and renders the
	 * response) and stores the response. If another attempt has taken the record over,
	 * {@code finish} never runs and nothing changes.
	 * @param lease the lease from {@link Claim.Acquired}
	 * @param finish updates the resource and returns the response to store; runs inside
	 * the completion transaction
	 * @return the stored response; empty if the lease was stale, or the completion lost
	 * to concurrent transactions on every retry, and nothing was stored (the lease then
	 * runs out and a retry takes the record over)
	 * @throws org.springframework.dao.DataAccessException if the database fails; the
	 * record then stays IN_PROGRESS and its lease expires for a later takeover
	 */
	public Optional<StoredResponse> complete(Lease lease, Supplier<StoredResponse> finish) {
		Optional<StoredResponse> stored;
		try {
			stored = inTransaction((status) -> {
				// Fence first: a stale attempt must not even run finish, whose resource
				// is no
				// longer its own.
				if (!this.records.lockIfHeld(lease)) {
					return Optional.<StoredResponse>empty();
				}
				StoredResponse response = finish.get();
				Instant now = this.clock.instant();
				if (this.records.complete(lease, response, now, now.plus(this.properties.retention()))) {
					return Optional.of(response);
				}
				status.setRollbackOnly();
				return Optional.<StoredResponse>empty();
			});
		}
		catch (TransientDatabaseConflict ex) {
			log.info("Completion lost to concurrent transactions {} times: client={} resource={} attempt={}",
					MAX_TRANSIENT_RETRIES + 1, lease.clientId(), lease.resourceId(), lease.attempt());
			return Optional.empty();
		}
		if (stored == null || stored.isEmpty()) {
			log.warn("Stale attempt's completion rejected: client={} resource={} attempt={}", lease.clientId(),
					lease.resourceId(), lease.attempt());
			return Optional.empty();
		}
		return stored;
	}

	/**
	 * Ends the lease at once without completing, so that the next request with the key
	 * takes the record over and drives the same resource again (DESIGN.md section 4, step
	 * 3: the provider did not act or its outcome is unknown). Fenced by the attempt.
	 * @param lease the lease from {@link Claim.Acquired}
	 * @return {@code true} if released; {@code false} if the lease was stale
	 */
	public boolean release(Lease lease) {
		Boolean released;
		try {
			released = inTransaction((status) -> this.records.release(lease, this.clock.instant()));
		}
		catch (TransientDatabaseConflict ex) {
			// The lease runs out by itself; a retry then takes the record over.
			log.info("Release lost to concurrent transactions: client={} resource={} attempt={}", lease.clientId(),
					lease.resourceId(), lease.attempt());
			return false;
		}
		if (!Boolean.TRUE.equals(released)) {
			log.warn("Stale attempt's release rejected: client={} resource={} attempt={}", lease.clientId(),
					lease.resourceId(), lease.attempt());
			return false;
		}
		return true;
	}

	/**
	 * Takes over records whose lease ended more than {@code staleAfter} ago, for a
	 * reconciler (DESIGN.md section 4, step 5). Each returned lease is held like a fresh
	 * takeover: the caller must complete or release it. Safe to run on several instances
	 * at once: a record is taken by one of them.
	 * @param staleAfter how long after its lease ended a record counts as stale, so that
	 * the client's own retry goes first
	 * @param limit the most records to take
	 * @return the leases taken over, attempt numbers already incremented
	 */
	public List<Lease> takeOverStale(Duration staleAfter, int limit) {
		Instant now = this.clock.instant();
		List<Lease> leases = inTransaction((status) -> this.records.takeOverStale(now.minus(staleAfter),
				now.plus(this.properties.lease()), limit));
		return (leases != null) ? leases : List.of();
	}

	/**
	 * Counts IN_PROGRESS records whose lease has ended: work a crash or an unknown
	 * outcome left for a retry or the reconciler.
	 * @return the number of records past their lease now
	 */
	public long countExpiredLeases() {
		return this.records.countExpiredLeases(this.clock.instant());
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
		for (int attempt = 0;; attempt++) {
			try {
				return this.transactions.execute(work);
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
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLException sql
					&& ("40001".equals(sql.getSQLState()) || "40P01".equals(sql.getSQLState()))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A transaction lost to concurrent ones on every try: a conflict, not an outage.
	 */
	static final class TransientDatabaseConflict extends ConcurrencyFailureException {

		TransientDatabaseConflict(Throwable cause) {
			super("Transaction aborted by concurrent transactions on every try", cause);
		}

	}

	private Duration retryAfter(Instant now, Instant lockedUntil) {
		Duration remaining = Duration.between(now, lockedUntil);
		return (remaining.compareTo(this.properties.retryAfter()) < 0) ? remaining : this.properties.retryAfter();
	}

	private static Lease lease(ClaimRequest request, UUID resourceId, int attempt, Instant lockedUntil) {
		return new Lease(request.clientId(), request.key(), resourceId, attempt, lockedUntil);
	}

}
