package dev.payonce.payment;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import org.springframework.stereotype.Service;

import dev.payonce.client.ClientId;
import dev.payonce.idempotency.IdempotentOperation.Action;
import dev.payonce.idempotency.ClaimRequest;
import dev.payonce.idempotency.IdempotencyService.Execution;
import dev.payonce.idempotency.IdempotentOperation.FinishStep;
import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.IdempotentOperation;
import dev.payonce.idempotency.ReconciliationProperties;
import dev.payonce.idempotency.IdempotentOperation.ReleaseStep;
import dev.payonce.idempotency.ResourceTable;
import dev.payonce.idempotency.StoredResponse;
import dev.payonce.idempotency.ResourceTable.Transition;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.OperationContext;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.provider.ProviderMetrics;

/**
 * Creates payments exactly once per (client, idempotency key) (docs/design.md section 4),
 * as the {@code payment} operation of the idempotency engine.
 *
 * <p>
 * The steps: the claim step writes a {@code PENDING} payment in the claim transaction;
 * the act step calls the provider outside any transaction with the provider idempotency
 * key derived from the payment id; approved (201) and declined (402) finish the payment
 * in the fenced completion transaction, while a refusal before charging or an unknown
 * outcome (503) releases the lease at once. A takeover reloads the same payment and sends
 * the same provider key, so the provider returns the original charge instead of making a
 * second one. The key changes only to a new provider key generation, which the
 * reconciliation step decides after a lookup proved the provider has no charge
 * ({@link PaymentReconciliation}). A payment older than the reconciler's give-up window
 * is never sent to a provider that forgets keys
 * ({@link PaymentGateway#providerKeyRetention}).
 *
 * <p>
 * Thread-safe; correct with any number of concurrent requests and application instances
 * sharing one database.
 */
@Service
public class PaymentService {

	/** The operation's name, stored with each of its idempotency records. */
	public static final String OPERATION = "payment";

	private static final Logger log = LoggerFactory.getLogger(PaymentService.class);

	private final IdempotencyService idempotency;

	private final Payments payments;

	private final PaymentGateway gateway;

	private final PaymentResponses responses;

	private final OperationContext context;

	private final PaymentMetrics metrics;

	private final ProviderMetrics calls;

	private final ReconciliationProperties reconciliation;

	private final ResourceTable<Payment> table;

	PaymentService(IdempotencyService idempotency, Payments payments, PaymentGateway gateway,
			PaymentResponses responses, OperationContext context, PaymentMetrics metrics, ProviderMetrics calls,
			ReconciliationProperties reconciliation, ResourceTable<Payment> table) {
		this.table = table;
		this.idempotency = idempotency;
		this.payments = payments;
		this.gateway = gateway;
		this.responses = responses;
		this.context = context;
		this.metrics = metrics;
		this.calls = calls;
		this.reconciliation = reconciliation;
	}

	/**
	 * Creates the payment, or answers what an earlier request with the same key decided.
	 * @param command the validated request
	 * @return the outcome to render
	 * @throws org.springframework.dao.DataAccessException if the database fails before or
	 * after the provider call; the key is then either unclaimed or held by a lease that a
	 * later retry takes over
	 */
	public PaymentOutcome pay(PaymentCommand command) {
		ClaimRequest request = new ClaimRequest(OperationContext.scope(command.clientId()), command.idempotencyKey(),
				command.fingerprint());
		return switch (this.idempotency.execute(new Charge(command), request)) {
			case Execution.Completed<GatewayResult> completed ->
				new PaymentOutcome.Completed(completed.response(), completed.replayed());
			case Execution.KeyReused<GatewayResult> reused -> new PaymentOutcome.KeyReused();
			case Execution.InProgress<GatewayResult> inProgress ->
				new PaymentOutcome.InProgress(inProgress.retryAfter());
			case Execution.Released<GatewayResult> released ->
				new PaymentOutcome.Unresolved(new PaymentId(released.resourceId()), released.retryAfter(),
						released.reason() instanceof GatewayResult.Unknown);
			case Execution.Refused<GatewayResult> refused ->
				throw new IllegalStateException("The payment operation never refuses a claim");
		};
	}

	/**
	 * A client's payment.
	 * @param clientId the calling client
	 * @param id the payment id
	 * @return the payment, or empty if it does not exist or belongs to another client
	 */
	public Optional<Payment> find(ClientId clientId, PaymentId id) {
		return this.payments.findByIdAndClientId(id.value(), clientId.value());
	}

	/** The payment operation's steps for one request. */
	private final class Charge implements IdempotentOperation<Payment, GatewayResult> {

		private final PaymentCommand command;

		Charge(PaymentCommand command) {
			this.command = command;
		}

		@Override
		public String name() {
			return OPERATION;
		}

		@Override
		public ResourceTable<Payment> resource() {
			return PaymentService.this.table;
		}

		/** A {@code PENDING} payment, which the engine inserts with the claim. */
		@Override
		public Payment create(UUID resourceId) {
			return Payment.pending(new PaymentId(resourceId), this.command.clientId(), this.command.orderId(),
					this.command.amount(), this.command.paymentMethod(), now());
		}

		/**
		 * One provider call at most, so the engine starts the act only while the lease
		 * has room for the worst-case call (docs/design.md section 4, "No act after its
		 * lease").
		 */
		@Override
		public Duration actBudget() {
			return PaymentService.this.gateway.worstCaseCallDuration();
		}

		@Override
		public Action<GatewayResult> act(Payment payment) {
			MDC.put("paymentId", payment.id().toString());
			boolean pastWindow = pastChargeWindow(payment);
			if (payment.providerReference() != null || payment.providerKeyReplayedAt() != null) {
				// A charge call would only be answered from what the provider saved under
				// the key; what the provider knows comes from a lookup.
				return settleByLookup(payment, pastWindow);
			}
			if (pastWindow) {
				log.warn("Payment {} unresolved: older than the give-up window, not charged again; left to "
						+ "reconciliation", payment.id());
				return new Action.Release<>(
						new GatewayResult.Unknown("older than the give-up window: left to reconciliation"));
			}
			GatewayResult result = callProvider(payment);
			return switch (result) {
				case GatewayResult.Approved approved -> new Action.Finish<>(succeeded(approved, payment));
				case GatewayResult.Declined declined -> new Action.Finish<>(declined(declined, payment));
				case GatewayResult.NotAttempted notAttempted -> {
					log.warn("Payment {} unresolved (not attempted): {}; lease released for a retry", payment.id(),
							notAttempted.reason());
					yield new Action.Release<>(result);
				}
				case GatewayResult.Unknown unknown -> {
					log.warn("Payment {} unresolved (outcome unknown): {}; lease released for a retry", payment.id(),
							unknown.reason());
					yield new Action.Release<>(result, learned(payment.providerKeyGeneration(), unknown));
				}
			};
		}

	}

	/**
	 * The act step of a payment whose provider key was answered from what the provider
	 * saved, or whose charge the provider named: one lookup instead of a charge call.
	 * Found: finished as a charge would be. Not found, and the lookup is proof (the key's
	 * replay is older than the gateway's lookup settle time, see
	 * {@link #provesNoCharge}): past the give-up window the payment fails, otherwise it
	 * moves to its next provider key generation in the fenced release, and the client's
	 * next retry charges under it. Otherwise released for a later retry.
	 */
	private Action<GatewayResult> settleByLookup(Payment payment, boolean pastWindow) {
		GatewayResult result = lookup(payment);
		return switch (result) {
			case GatewayResult.Approved approved -> new Action.Finish<>(succeeded(approved, payment));
			case GatewayResult.Declined declined -> new Action.Finish<>(declined(declined, payment));
			case GatewayResult.Unknown unknown -> {
				log.warn("Payment {} unresolved (lookup: {}); lease released for a retry", payment.id(),
						unknown.reason());
				yield new Action.Release<>(result, learned(payment.providerKeyGeneration(), unknown));
			}
			case GatewayResult.NotAttempted notFound -> {
				if (!provesNoCharge(payment)) {
					log.info("Payment {} unresolved: the provider has no charge for it yet, not proof before the "
							+ "lookup settle time; lease released for a retry", payment.id());
					yield new Action.Release<>(new GatewayResult.Unknown("not found within the lookup settle time"));
				}
				if (pastWindow) {
					yield new Action.Finish<>(failed());
				}
				yield new Action.Release<>(
						new GatewayResult.Unknown("no charge under the replayed key: next generation"),
						newProviderKeyGeneration(payment.providerKeyGeneration()));
			}
		};
	}

	/**
	 * Whether a lookup that found nothing now proves the provider has no charge for the
	 * payment under any key: the current key was answered from what the provider saved
	 * (so the one request under it that executed had ended by then and none executes
	 * after), at least the gateway's lookup settle time ago, and the provider never named
	 * a charge of the payment. Earlier generations were proven empty before the payment
	 * left them (docs/design.md section 5).
	 */
	boolean provesNoCharge(Payment payment) {
		Instant replayedAt = payment.providerKeyReplayedAt();
		return payment.providerReference() == null && replayedAt != null
				&& !replayedAt.plus(this.gateway.lookupSettleTime()).isAfter(now());
	}

	/**
	 * What an unknown answer taught that must outlive the attempt, recorded in the fenced
	 * release: the charge the provider named, and that the key was answered from what the
	 * provider saved.
	 */
	private ReleaseStep learned(int generation, GatewayResult.Unknown unknown) {
		String reference = unknown.providerReference();
		if (reference == null && !unknown.replayed()) {
			return (id) -> {
			};
		}
		return (id) -> {
			Payment payment = load(new PaymentId(id));
			boolean changed = false;
			if (reference != null && payment.rememberProviderReference(reference, now())) {
				log.info("Payment {} keeps its provider reference before a final outcome", id);
				changed = true;
			}
			if (unknown.replayed() && payment.recordProviderKeyReplayed(generation, now())) {
				log.info("Payment {}: provider key generation {} answered from what the provider saved", id,
						generation);
				changed = true;
			}
			if (changed) {
				this.payments.flush();
			}
		};
	}

	private GatewayResult lookup(Payment payment) {
		return this.calls.providerCall("lookup", payment.id(), () -> this.gateway.lookup(payment.chargeRequest()));
	}

	/** The fenced completion of an approved charge: payment SUCCEEDED, 201 stored. */
	FinishStep succeeded(GatewayResult.Approved approved) {
		return this.table.finish(succeeding(approved));
	}

	/**
	 * As {@link #succeeded(GatewayResult.Approved)}, written over the payment the act
	 * step read (docs/design.md section 4, "Completion in one statement").
	 */
	FinishStep succeeded(GatewayResult.Approved approved, Payment read) {
		return this.table.finish(read, succeeding(approved));
	}

	private Transition<Payment> succeeding(GatewayResult.Approved approved) {
		return announced(PaymentStatus.SUCCEEDED, (payment) -> {
			payment.markSucceeded(approved.providerReference(), now());
			return this.responses.created(payment);
		});
	}

	/** The fenced completion of a declined charge: payment DECLINED, 402 stored. */
	FinishStep declined(GatewayResult.Declined declined) {
		return this.table.finish(declining(declined));
	}

	/**
	 * As {@link #declined(GatewayResult.Declined)}, written over the payment the act step
	 * read.
	 */
	FinishStep declined(GatewayResult.Declined declined, Payment read) {
		return this.table.finish(read, declining(declined));
	}

	private Transition<Payment> declining(GatewayResult.Declined declined) {
		return announced(PaymentStatus.DECLINED, (payment) -> {
			payment.markDeclined(declined.providerReference(), declined.declineCode(), now());
			return this.responses.declined(payment);
		});
	}

	/**
	 * The fenced completion of a final outcome learned outside a charge call (a webhook
	 * event, a lookup).
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

	/** Reconciliation gave up: payment FAILED and the failure stored for every retry. */
	FinishStep failed() {
		return this.table.finish(announced(PaymentStatus.FAILED, (payment) -> {
			payment.markFailed(now());
			return this.responses.failed(payment);
		}));
	}

	/**
	 * The payment's one move to {@code status}, announced (metric and log line) once the
	 * completion that wrote it committed.
	 */
	private Transition<Payment> announced(PaymentStatus status, Function<Payment, StoredResponse> move) {
		return Transition.of(move, (payment, response) -> {
			this.metrics.paymentFinished(status);
			log.info("Payment {} completed: {} ({})", payment.id(), status, response.status());
		});
	}

	/**
	 * The fenced release that moves a payment to its next provider key generation: runs
	 * inside the engine's release transaction, only while the reconciler's lease still
	 * holds the record. Only after a lookup proved the provider has no charge for the
	 * payment (see {@link Payment#startNewProviderKeyGeneration}).
	 * @param from the generation the proof was made for; the step refuses any other
	 */
	ReleaseStep newProviderKeyGeneration(int from) {
		return (id) -> {
			Payment payment = load(new PaymentId(id));
			if (payment.providerKeyGeneration() != from) {
				throw new IllegalStateException("Payment " + id + " is at provider key generation "
						+ payment.providerKeyGeneration() + ", not " + from);
			}
			payment.startNewProviderKeyGeneration(now());
			this.payments.flush();
			log.warn("Payment {} moves to provider key generation {}: the provider has no charge for it", id,
					payment.providerKeyGeneration());
		};
	}

	/**
	 * A provider that forgets provider idempotency keys (Stripe: after 24 hours) must not
	 * be sent a charge once the payment is older than the reconciler's give-up window:
	 * {@code LeaseGuard} keeps that window short of the key retention, so every charge
	 * attempt reaches the provider while it still remembers the key.
	 */
	private boolean pastChargeWindow(Payment payment) {
		return this.gateway.providerKeyRetention().isPresent()
				&& !payment.createdAt().plus(this.reconciliation.giveUpAfter()).isAfter(now());
	}

	private GatewayResult callProvider(Payment payment) {
		return this.calls.providerCall("charge", payment.id(), () -> this.gateway.charge(payment.chargeRequest()));
	}

	/**
	 * A payment by id, whatever its client; for takeovers and the reconciler.
	 * @throws IllegalStateException if the payment does not exist
	 */
	public Payment load(PaymentId paymentId) {
		return this.payments.findById(paymentId.value())
			.orElseThrow(() -> new IllegalStateException("Claimed payment " + paymentId + " does not exist"));
	}

	private Instant now() {
		return this.context.now();
	}

}
