package dev.payonce.idempotency;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The claim path of {@link IdempotencyService} (docs/design.md section 4, steps 1 and 4):
 * a fresh key claimed in one statement where it can, otherwise in a claim transaction
 * with every {@link ClaimGuard}, the operation's authorization and its claim step; a
 * key's record answered as a replay, a key reuse or in progress; an expired lease taken
 * over, fenced by the attempt. A request that finds a live lease waits up to
 * {@code payonce.idempotency.in-progress-wait} for the first one to finish.
 */
final class Claims {

	/** The engine's own log category, whichever of its classes writes the line. */
	private static final Logger log = LoggerFactory.getLogger(IdempotencyService.class);

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

	private final IdempotencyRecords records;

	private final CompletedResponses completed;

	private final EngineTransactions tx;

	private final IdempotencyProperties properties;

	private final Clock clock;

	private final IdempotencyMetrics metrics;

	private final List<ClaimGuard> guards;

	Claims(IdempotencyRecords records, CompletedResponses completed, EngineTransactions tx,
			IdempotencyProperties properties, Clock clock, IdempotencyMetrics metrics, List<ClaimGuard> guards) {
		this.records = records;
		this.completed = completed;
		this.tx = tx;
		this.properties = properties;
		this.clock = clock;
		this.metrics = metrics;
		this.guards = List.copyOf(guards);
	}

	/**
	 * Claims the request's key for the operation, or answers what the key's record
	 * decided; counted by outcome.
	 * @param operation the operation's checked name
	 */
	Claim claim(String operation, ClaimRequest request, Steps<?, ?> steps) {
		Claim claim = claimWithinWait(operation, request, steps);
		this.metrics.claimed(operation, outcome(claim));
		return claim;
	}

	/**
	 * An operation's claim steps and its prepared resource ({@code null} without one).
	 */
	record Steps<R, T>(IdempotentOperation<R, T> operation, @Nullable PreparedResource<R> resource) {

		/**
		 * The steps of an operation without a declared resource whose claim step is
		 * {@code create} and that is only claimed, never acted on (for the engine's
		 * tests).
		 */
		static Steps<Object, Object> claimOnly(String operation, IdempotencyService.ClaimStep create) {
			return new Steps<>(new IdempotentOperation<Object, Object>() {
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
					throw new IllegalStateException("An operation that is only claimed is never acted on");
				}
			}, null);
		}

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
			if (!EngineTransactions.pause(Math.min(pause, left))) {
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
		if (first && steps.inOneStatement() && !this.tx.declaresIsolation()) {
			Optional<Claim> claimed;
			try {
				claimed = claimInOneStatement(operation, request, steps);
			}
			catch (EngineTransactions.TransientDatabaseConflict ex) {
				log.info("Claim lost to concurrent transactions {} times; answered in progress",
						EngineTransactions.MAX_TRANSIENT_RETRIES + 1);
				return new Claim.InProgress(this.properties.retryAfter());
			}
			if (claimed.isPresent()) {
				return claimed.get();
			}
		}
		for (int round = 0; round < MAX_CLAIM_ROUNDS; round++) {
			Optional<Claim> claim;
			try {
				claim = this.tx.inTransaction((status) -> {
					Optional<Claim> attempt = attemptClaim(operation, request, steps);
					if (attempt.isPresent()
							&& (attempt.get() instanceof Claim.Refused || attempt.get() instanceof Claim.InProgress)) {
						// The claim insert and whatever the claim step wrote go together.
						status.setRollbackOnly();
					}
					return attempt;
				});
			}
			catch (EngineTransactions.TransientDatabaseConflict ex) {
				log.info("Claim lost to concurrent transactions {} times; answered in progress",
						EngineTransactions.MAX_TRANSIENT_RETRIES + 1);
				return new Claim.InProgress(this.properties.retryAfter());
			}
			if (claim != null && claim.isPresent()) {
				return claim.get();
			}
		}
		return new Claim.InProgress(this.properties.retryAfter());
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
		PreparedResource.Claimed claimed = this.tx.retryingConflicts(() -> resource.claim(operation, request,
				resourceId, now, this.properties.lease(), created, claimArguments));
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

	private Duration retryAfter(Duration remaining) {
		return (remaining.compareTo(this.properties.retryAfter()) < 0) ? remaining : this.properties.retryAfter();
	}

}
