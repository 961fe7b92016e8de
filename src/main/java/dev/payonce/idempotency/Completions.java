package dev.payonce.idempotency;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.payonce.idempotency.IdempotentOperation.FinishStep;
import dev.payonce.idempotency.IdempotentOperation.ReleaseStep;

/**
 * The end of an attempt for {@link IdempotencyService} and the reconciler (docs/design.md
 * section 4, steps 3, 5 and 7): the fenced completion, in one statement over the act
 * step's copy where it can; the fenced release, with the operation's {@link ReleaseStep};
 * and the takeovers that start an attempt without a request (stale records, an outcome
 * learned outside the act step). Every write is fenced by the lease's attempt: a stale
 * attempt changes nothing.
 */
final class Completions {

	/** The engine's own log category, whichever of its classes writes the line. */
	private static final Logger log = LoggerFactory.getLogger(IdempotencyService.class);

	private final IdempotencyRecords records;

	private final EngineTransactions tx;

	private final IdempotencyProperties properties;

	private final Clock clock;

	Completions(IdempotencyRecords records, EngineTransactions tx, IdempotencyProperties properties, Clock clock) {
		this.records = records;
		this.tx = tx;
		this.properties = properties;
		this.clock = clock;
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
		catch (EngineTransactions.TransientDatabaseConflict ex) {
			log.info(
					"Completion lost to concurrent transactions {} times: scope={} operation={} resource={} attempt={}",
					EngineTransactions.MAX_TRANSIENT_RETRIES + 1, lease.scope(), lease.operation(), lease.resourceId(),
					lease.attempt());
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
		IdempotencyRecords.Completion completion = !this.tx.declaresIsolation() ? this.tx.retryingConflicts(
				() -> resource.complete(lease, copy, response, this.clock.instant(), this.properties.retention()))
				: this.tx.inTransaction((status) -> {
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
		return this.tx.inTransaction((status) -> {
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
			released = this.tx.inTransaction((status) -> {
				if (!this.records.lockIfHeld(lease)) {
					return false;
				}
				prepare.prepare(lease.resourceId());
				return this.records.release(lease);
			});
		}
		catch (EngineTransactions.TransientDatabaseConflict ex) {
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
		List<Lease> leases = this.tx.inTransaction((status) -> this.records.takeOverStale(operation, staleAfter,
				this.properties.lease(), lockedUntil, limit));
		return (leases != null) ? leases : List.of();
	}

	/**
	 * {@link IdempotencyService#completeResource}: takes the resource's record over if
	 * its lease has ended, then completes it fenced; a failure releases the lease taken.
	 * @param operation the operation's checked name
	 */
	Optional<StoredResponse> completeResource(String operation, IdempotencyScope scope, UUID resourceId,
			FinishStep finish) {
		Instant lockedUntil = this.clock.instant().plus(this.properties.lease());
		Optional<Lease> lease = this.tx.inTransaction((status) -> this.records.takeOverResource(operation, scope,
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

}
