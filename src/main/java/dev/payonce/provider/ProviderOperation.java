package dev.payonce.provider;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.payonce.idempotency.IdempotentOperation.Action;
import dev.payonce.idempotency.IdempotentOperation.FinishStep;
import dev.payonce.idempotency.IdempotentOperation;
import dev.payonce.idempotency.Lease;
import dev.payonce.idempotency.ReconciliationProperties;
import dev.payonce.idempotency.ReconciliationStep;
import dev.payonce.idempotency.IdempotentOperation.ReleaseStep;
import dev.payonce.idempotency.ResourceTable;
import dev.payonce.idempotency.ReconciliationStep.Settlement;
import dev.payonce.idempotency.StoredResponse;

/**
 * The provider choreography of an operation that asks the provider to act once per
 * resource (a charge, a refund), written once (docs/design.md section 4 and 5):
 *
 * <ul>
 * <li>the act step calls the provider at most once, under the provider idempotency key
 * derived from the resource id and its generation; approved and declined finish the
 * resource in the fenced completion, written over the copy the act step read; a refusal
 * before acting or an unknown outcome releases the lease, recording in the fenced release
 * what the answer taught (a provider reference, a replayed key);</li>
 * <li>a resource whose key was answered from what the provider saved, or whose provider
 * reference is known, is looked up instead of sent again: found finishes it; not found is
 * proof only after the lookup's settle time, and then moves the key to its next
 * generation, or fails the resource past the give-up window;</li>
 * <li>a resource older than the give-up window is never sent to a provider that forgets
 * keys ({@link PaymentGateway#providerKeyRetention()}): it is left to
 * reconciliation;</li>
 * <li>the reconciliation step ({@link ReconciliationStep}, with
 * {@link ProviderReconciliation}) looks the resource up and never acts.</li>
 * </ul>
 * A subclass names the call and the lookup, renders the final responses and says how an
 * unresolved attempt is reported; it adds its own claim (for example a reservation) in
 * the per-request {@link Request}. Thread-safe.
 *
 * @param <R> the resource
 * @param <T> the operation's reason when a claim is refused or a lease released
 */
public abstract class ProviderOperation<R extends ProviderResource, T> implements ReconciliationStep {

	/**
	 * The operation's own logger ({@code Charges}, {@code RefundCalls}), so its lines
	 * stay under its module's logger category.
	 */
	private final Logger log = LoggerFactory.getLogger(getClass());

	private final String name;

	private final ProviderServices services;

	private final ProviderSteps<R> steps;

	/**
	 * @param name the engine operation's name, also the resource's kind ({@code payment})
	 * @param table the resource's declaration for the engine
	 * @param rows the resource's repository
	 * @param services the provider, its meters, the clock and the reconciliation window
	 */
	protected ProviderOperation(String name, ResourceTable<R> table, ProviderRows<R> rows, ProviderServices services) {
		this.name = name;
		this.services = services;
		this.steps = new ProviderSteps<>(name, table, rows, services, this::response, this.log);
	}

	/**
	 * The provider call that acts (a charge, a refund), sent as it is for every attempt
	 * of the resource's current provider key generation.
	 * @param resource the resource
	 * @return the provider's answer; never throws for an expected outcome
	 */
	protected abstract GatewayResult send(R resource);

	/**
	 * The provider lookup of what the resource's calls did; it never acts.
	 * @param resource the resource
	 * @return approved or declined if found, not attempted if the provider has none,
	 * unknown if the lookup failed
	 */
	protected abstract GatewayResult lookUp(R resource);

	/**
	 * The response stored for a resource that reached its final status.
	 * @param resource the resource, moved to a final status
	 * @return the response every replay gets
	 */
	protected abstract StoredResponse response(R resource);

	/**
	 * The operation's reason for a lease released without a final outcome.
	 * @param resource the resource
	 * @param reason {@link GatewayResult.NotAttempted} (the provider refused before
	 * acting) or {@link GatewayResult.Unknown} (it may have acted)
	 * @return the reason {@link dev.payonce.idempotency.Execution.Released} carries
	 */
	protected abstract T unresolved(R resource, GatewayResult reason);

	/**
	 * The provider-call meter's {@code operation} tag of {@link #send}; the lookup's is
	 * {@code lookup} for a {@code charge} and {@code <tag>_lookup} otherwise.
	 * @return for example {@code charge}, {@code refund}
	 */
	protected abstract String callTag();

	/**
	 * How long after a key's replay a lookup that finds nothing is proof (docs/design.md
	 * section 5): zero for a lookup that reads the provider's own writes.
	 * @return the settle time; zero by default
	 */
	@Override
	public Duration settleTime() {
		return Duration.ZERO;
	}

	/**
	 * Whether the reconciler, having found nothing, moves the resource to its next
	 * provider key generation (in the fenced release) so that the next retry is not
	 * answered by what the provider saved under the current key.
	 * @param resource the resource, with no provider reference
	 * @return whether to reattempt under a new key
	 */
	protected abstract boolean reattemptsUnderNewKey(R resource);

	/**
	 * Puts the resource's ids into the log context of the act step.
	 * @param resource the resource
	 */
	protected abstract void logContext(R resource);

	/**
	 * The engine operation's name, also the resource's kind.
	 * @return for example {@code payment}
	 */
	@Override
	public String operation() {
		return this.name;
	}

	/**
	 * The provider services this operation uses.
	 * @return the services
	 */
	protected ProviderServices services() {
		return this.services;
	}

	/**
	 * The act step (docs/design.md section 4): a lookup, a release, or one provider call.
	 * @param resource the resource, fresh from the claim or reloaded by a takeover
	 * @return finish or release
	 */
	public Action<T> act(R resource) {
		logContext(resource);
		boolean pastWindow = pastGiveUpWindow(resource);
		if (resource.providerReference() != null || resource.providerKeyReplayedAt() != null) {
			// A call would only be answered from what the provider saved under the key;
			// what the provider knows comes from a lookup.
			return settleByLookup(resource, pastWindow);
		}
		if (pastWindow) {
			log.warn("{} {} unresolved: older than the give-up window, not sent again; left to reconciliation",
					this.steps.noun(), resource.resourceId());
			return release(resource, new GatewayResult.Unknown("older than the give-up window"), null);
		}
		GatewayResult result = this.services.metrics()
			.providerCall(callTag(), resource.resourceId(), () -> send(resource));
		return switch (result) {
			case GatewayResult.Approved approved -> new Action.Finish<>(this.steps.succeeded(approved, resource));
			case GatewayResult.Declined declined -> new Action.Finish<>(this.steps.declined(declined, resource));
			case GatewayResult.NotAttempted notAttempted -> {
				log.warn("{} {} unresolved (not attempted): {}; lease released for a retry", this.steps.noun(),
						resource.resourceId(), notAttempted.reason());
				yield release(resource, result, null);
			}
			case GatewayResult.Unknown unknown -> {
				log.warn("{} {} unresolved (outcome unknown): {}; lease released for a retry", this.steps.noun(),
						resource.resourceId(), unknown.reason());
				yield release(resource, result, this.steps.learned(resource.providerKeyGeneration(), unknown));
			}
		};
	}

	/**
	 * The act step of a resource whose key was answered from what the provider saved, or
	 * whose provider reference is known: one lookup instead of a call. Found: finished as
	 * a call would be. Not found, and the lookup is proof ({@link #provesNone}): past the
	 * give-up window the resource fails, otherwise it moves to its next provider key
	 * generation in the fenced release, and the client's next retry sends under it.
	 * Otherwise released for a later retry.
	 */
	private Action<T> settleByLookup(R resource, boolean pastWindow) {
		GatewayResult result = lookup(resource);
		return switch (result) {
			case GatewayResult.Approved approved -> new Action.Finish<>(this.steps.succeeded(approved, resource));
			case GatewayResult.Declined declined -> new Action.Finish<>(this.steps.declined(declined, resource));
			case GatewayResult.Unknown unknown -> {
				log.warn("{} {} unresolved (lookup: {}); lease released for a retry", this.steps.noun(),
						resource.resourceId(), unknown.reason());
				yield release(resource, result, this.steps.learned(resource.providerKeyGeneration(), unknown));
			}
			case GatewayResult.NotAttempted notFound -> {
				if (!provesNone(resource)) {
					log.info(
							"{} {} unresolved: the provider has none of it yet, not proof before the lookup "
									+ "settle time; lease released for a retry",
							this.steps.noun(), resource.resourceId());
					yield release(resource, new GatewayResult.Unknown("not found within the lookup settle time"), null);
				}
				if (pastWindow) {
					yield new Action.Finish<>(failed());
				}
				yield release(resource, new GatewayResult.Unknown("none under the replayed key: next generation"),
						newProviderKeyGeneration(resource.providerKeyGeneration()));
			}
		};
	}

	private Action<T> release(R resource, GatewayResult reason, @Nullable ReleaseStep step) {
		T why = unresolved(resource, reason);
		return (step != null) ? new Action.Release<>(why, step) : new Action.Release<>(why);
	}

	/**
	 * Whether a lookup that found nothing now proves the provider has none of the
	 * resource under any key: the current key was answered from what the provider saved
	 * (so the one request under it that executed had ended by then and none executes
	 * after), at least the lookup's settle time ago, and the provider never named it.
	 * Earlier generations were proven empty before the resource left them (docs/design.md
	 * section 5).
	 * @param resource the resource
	 * @return whether the lookup's answer is proof
	 */
	public boolean provesNone(R resource) {
		Instant replayedAt = resource.providerKeyReplayedAt();
		return resource.providerReference() == null && replayedAt != null
				&& !replayedAt.plus(settleTime()).isAfter(now());
	}

	/**
	 * The lookup, timed into the provider-call meter.
	 * @param resource the resource
	 * @return the provider's answer
	 */
	protected GatewayResult lookup(R resource) {
		String tag = callTag().equals("charge") ? "lookup" : callTag() + "_lookup";
		return this.services.metrics().providerCall(tag, resource.resourceId(), () -> lookUp(resource));
	}

	/**
	 * The fenced release that moves the resource to its next provider key generation:
	 * runs inside the engine's release transaction, only while the lease the proof was
	 * made under still holds the record
	 * ({@link ProviderResource#startNewProviderKeyGeneration}).
	 * @param from the generation the proof was made for; the step refuses any other
	 * @return the release step
	 */
	public ReleaseStep newProviderKeyGeneration(int from) {
		return this.steps.newProviderKeyGeneration(from);
	}

	/**
	 * The fenced completion of an approved call: the resource SUCCEEDED, its response
	 * stored; it reads the resource inside the completion (for an outcome learned outside
	 * the act step: a webhook event, the reconciler).
	 * @param approved the provider's answer
	 * @return the finish step
	 */
	public FinishStep succeeded(GatewayResult.Approved approved) {
		return this.steps.succeeded(approved, null);
	}

	/**
	 * The fenced completion of a declined call: the resource DECLINED, its response
	 * stored.
	 * @param declined the provider's answer
	 * @return the finish step
	 */
	public FinishStep declined(GatewayResult.Declined declined) {
		return this.steps.declined(declined, null);
	}

	/**
	 * The fenced completion of a final outcome learned outside a call (a webhook event, a
	 * lookup).
	 * @param outcome {@link GatewayResult.Approved} or {@link GatewayResult.Declined}
	 * @return {@link #succeeded} or {@link #declined}
	 * @throws IllegalArgumentException for an outcome that is not final
	 */
	public FinishStep finished(GatewayResult outcome) {
		return switch (outcome) {
			case GatewayResult.Approved approved -> succeeded(approved);
			case GatewayResult.Declined declined -> declined(declined);
			case GatewayResult.NotAttempted notAttempted ->
				throw new IllegalArgumentException("Not a final outcome: " + notAttempted);
			case GatewayResult.Unknown unknown -> throw new IllegalArgumentException("Not a final outcome: " + unknown);
		};
	}

	/**
	 * Reconciliation gave up: the resource FAILED and the failure stored for every retry.
	 * @return the finish step
	 */
	public FinishStep failed() {
		return this.steps.failed();
	}

	@Override
	public Settlement settle(Lease lease) {
		return ProviderReconciliation.settle(this, load(lease.resourceId()));
	}

	/**
	 * Whether the resource is older than the reconciler's give-up window.
	 * @param resource the resource
	 * @return whether it is given up on once the provider has none of it
	 */
	boolean givenUp(R resource) {
		return !resource.createdAt().plus(this.services.reconciliation().giveUpAfter()).isAfter(now());
	}

	/**
	 * A provider that forgets provider idempotency keys (Stripe: after 24 hours) must not
	 * be sent a call once the resource is older than the reconciler's give-up window:
	 * {@code LeaseGuard} keeps that window short of the key retention, so every attempt
	 * reaches the provider while it still remembers the key.
	 */
	private boolean pastGiveUpWindow(R resource) {
		return this.services.gateway().providerKeyRetention().isPresent() && givenUp(resource);
	}

	/**
	 * A resource by id, whatever its client; for takeovers, releases and the reconciler.
	 * @param id the resource id
	 * @return the resource
	 * @throws IllegalStateException if it does not exist (a broken invariant)
	 */
	public R load(UUID id) {
		return this.steps.load(id);
	}

	/**
	 * Now, as a row stores it.
	 * @return the clock's instant, truncated to microseconds
	 */
	protected Instant now() {
		return this.services.context().now();
	}

	/**
	 * One request's steps for the engine: the name, the declared resource, the act step
	 * and its budget come from the operation; a subclass builds the new resource and, for
	 * a resource claimed with a reservation, its arguments and refusal.
	 */
	public abstract class Request implements IdempotentOperation<R, T> {

		@Override
		public String name() {
			return ProviderOperation.this.name;
		}

		@Override
		public ResourceTable<R> resource() {
			return ProviderOperation.this.steps.table();
		}

		/**
		 * One provider call at most, so the engine starts the act only while the lease
		 * has room for the worst-case call (docs/design.md section 4, "No act after its
		 * lease").
		 */
		@Override
		public Duration actBudget() {
			return ProviderOperation.this.services.gateway().worstCaseCallDuration();
		}

		@Override
		public Action<T> act(R resource) {
			return ProviderOperation.this.act(resource);
		}

	}

}
