package dev.payonce.idempotency;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;

import dev.payonce.idempotency.IdempotentOperation.Action;
import dev.payonce.idempotency.IdempotentOperation.FinishStep;
import dev.payonce.idempotency.IdempotentOperation.ReleaseStep;

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
 * {@code 40P01}) is retried up to {@value EngineTransactions#MAX_TRANSIENT_RETRIES} times
 * after a short jittered pause (nothing of the aborted try committed, so the claim step
 * and finish step simply run again); a claim that still fails is answered in progress,
 * never as a database outage.
 */
@Service
public class IdempotencyService {

	private static final Logger log = LoggerFactory.getLogger(IdempotencyService.class);

	private static final Pattern OPERATION_NAME = Pattern.compile("[a-z_]{1,32}");

	private final EngineTransactions tx;

	private final Claims claims;

	private final Completions completions;

	private final RecordQuota quota;

	private final IdempotencyProperties properties;

	private final Clock clock;

	IdempotencyService(IdempotencyRecords records, CompletedResponses completed,
			PlatformTransactionManager transactionManager, DataSource dataSource, IdempotencyProperties properties,
			Clock clock, IdempotencyMetrics metrics, List<ClaimGuard> guards, List<ResourceTable<?>> resources,
			JdbcClient jdbc, RecordQuota quota) {
		this.quota = quota;
		this.tx = new EngineTransactions(transactionManager, dataSource);
		this.claims = new Claims(records, completed, this.tx, properties, clock, metrics, guards);
		this.completions = new Completions(records, this.tx, properties, clock);
		this.properties = properties;
		this.clock = clock;
		// Every declared resource's statements, built once (docs/design.md section 4): a
		// malformed declaration fails the start, not a request.
		ClaimDeadline deadline = ClaimDeadline.of(dataSource);
		for (ResourceTable<?> resource : resources) {
			prepare(resource, jdbc, records, List.copyOf(guards), deadline);
		}
	}

	private <R> void prepare(ResourceTable<R> resource, JdbcClient jdbc, IdempotencyRecords records,
			List<ClaimGuard> guards, ClaimDeadline deadline) {
		resource.prepare(new PreparedResource<>(resource, jdbc, records, guards, deadline));
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
		Claim claim = this.claims.claim(name, request, new Claims.Steps<>(operation, resource));
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
		return this.claims.claim(operation, request, Claims.Steps.claimOnly(operation, create));
	}

	/** The claim step as the engine's tests call it. */
	@FunctionalInterface
	interface ClaimStep {

		/** The resource; {@code null} to refuse the claim. */
		@Nullable Object create(UUID resourceId);

	}

	/**
	 * Claims the request's key for {@code operation} as {@link #execute} does, without
	 * acting.
	 */
	<R, T> Claim claim(IdempotentOperation<R, T> operation, ClaimRequest request) {
		ResourceTable<R> declared = operation.resource();
		return this.claims.claim(operationName(operation.name()), request,
				new Claims.Steps<>(operation, (declared != null) ? declared.prepared() : null));
	}

	/**
	 * Completes the operation fenced by the lease's attempt, as {@link #execute} does
	 * after a final answer (docs/design.md section 4, step 3, and "Completion in one
	 * statement"): if another attempt has taken the record over, nothing changes and
	 * {@code finish} never runs.
	 * @param lease the lease this attempt holds
	 * @param finish the operation's finish step; runs inside the completion transaction
	 * @return the stored response; empty if the lease was stale, or the completion lost
	 * to concurrent transactions on every retry, and nothing was stored (the lease then
	 * runs out and a retry takes the record over)
	 * @throws org.springframework.dao.DataAccessException if the database fails; the
	 * record then stays IN_PROGRESS and its lease expires for a later takeover
	 */
	Optional<StoredResponse> complete(Lease lease, FinishStep finish) {
		return this.completions.complete(lease, finish);
	}

	/**
	 * Ends the lease at once without completing, so that the next request with the key
	 * takes the record over and drives the same resource again (docs/design.md section 4,
	 * step 3). Fenced by the attempt.
	 * @return {@code true} if released; {@code false} if the lease was stale
	 */
	boolean release(Lease lease) {
		return this.completions.release(lease);
	}

	/**
	 * Ends the lease at once and runs {@code prepare} in the same fenced transaction,
	 * only if this lease's attempt still holds the record.
	 * @return {@code true} if released (and {@code prepare} committed); {@code false} if
	 * the lease was stale and nothing changed
	 */
	boolean release(Lease lease, ReleaseStep prepare) {
		return this.completions.release(lease, prepare);
	}

	/**
	 * Takes over one operation's records whose lease ended more than {@code staleAfter}
	 * ago by the database's clock, for the reconciler (docs/design.md section 4, step 5).
	 * @return the leases taken over, attempt numbers already incremented; each must be
	 * completed or released
	 */
	List<Lease> takeOverStale(String operation, Duration staleAfter, int limit) {
		return this.completions.takeOverStale(operation, staleAfter, limit);
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
		return this.completions.completeResource(operationName(operation), scope, resourceId, finish);
	}

	/**
	 * Whether each engine transaction declares READ COMMITTED itself, because the pool
	 * does not keep every session at that level ({@link SessionIsolation}).
	 * @return {@code false} with the pool settings of {@code application.properties}
	 */
	boolean declaresIsolation() {
		return this.tx.declaresIsolation();
	}

	/**
	 * The lease every claim and takeover holds.
	 * @return {@code payonce.idempotency.lease}
	 */
	public Duration lease() {
		return this.properties.lease();
	}

	/**
	 * How long a completed record is replayed before its key may start a new operation
	 * (docs/design.md section 4, step 6).
	 * @return {@code payonce.idempotency.retention}
	 */
	public Duration retention() {
		return this.properties.retention();
	}

	/**
	 * Whether a request with this key may go on to claim it, under the cap on a scope's
	 * live records ({@code payonce.idempotency.quota.*}). A key that already has a record
	 * is always admitted (its replay, 409 or takeover costs no new record); a new key is
	 * refused once the scope holds {@code max-live-records}, until its oldest stored
	 * response expires. The count comes from PostgreSQL, so the cap holds across
	 * instances; each instance trusts its count for {@code check-interval} and stops
	 * counting at the cap, so a scope costs one bounded count per interval and nothing
	 * per request while it is under the cap.
	 * @param scope who owns the key (for payments, the calling client)
	 * @param key the idempotency key
	 * @return empty if admitted; otherwise how long until the scope's oldest live record
	 * expires, for {@code Retry-After}
	 * @throws org.springframework.dao.DataAccessException if the database fails
	 */
	public Optional<Duration> quotaRefusal(IdempotencyScope scope, IdempotencyKey key) {
		return this.quota.refusal(scope.value(), key);
	}

	/**
	 * The {@code Retry-After} to send when the outcome is not known yet.
	 * @return the configured {@code payonce.idempotency.retry-after}
	 */
	public Duration retryAfter() {
		return this.properties.retryAfter();
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

	/**
	 * What {@link IdempotencyService#execute} decided, for the caller to render
	 * (docs/design.md section 2).
	 *
	 * @param <T> the operation's reason type
	 */
	public sealed interface Execution<T> {

		/**
		 * A final answer, the same bytes for the first request and every replay.
		 *
		 * @param <T> the operation's reason type
		 * @param response the stored response
		 * @param replayed {@code true} when an earlier request stored it
		 */
		record Completed<T>(StoredResponse response, boolean replayed) implements Execution<T> {
		}

		/**
		 * The key was used with a different request, or for another operation: nothing
		 * executed.
		 *
		 * @param <T> the operation's reason type
		 */
		record KeyReused<T>() implements Execution<T> {
		}

		/**
		 * Another request with the key holds a live lease, or took this attempt's record
		 * over.
		 *
		 * @param <T> the operation's reason type
		 * @param retryAfter when to retry
		 */
		record InProgress<T>(Duration retryAfter) implements Execution<T> {
		}

		/**
		 * The operation's claim step refused; nothing was stored.
		 *
		 * @param <T> the operation's reason type
		 * @param reason the operation's reason
		 */
		record Refused<T>(T reason) implements Execution<T> {
		}

		/**
		 * The act step released the lease: a retry with the same key drives the same
		 * resource again.
		 *
		 * @param <T> the operation's reason type
		 * @param resourceId the resource the retry will resolve
		 * @param reason the operation's reason
		 * @param retryAfter when to retry
		 */
		record Released<T>(UUID resourceId, T reason, Duration retryAfter) implements Execution<T> {
		}

	}

}
