package dev.payonce.refund;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
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
import dev.payonce.payment.Payment;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.PaymentService;
import dev.payonce.provider.AmountLimits;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.Money;
import dev.payonce.provider.OperationContext;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.provider.ProviderMetrics;
import dev.payonce.provider.RefundRequest;

/**
 * Refunds payments exactly once per (client, idempotency key), as the {@code refund}
 * operation of the idempotency engine (docs/design.md section 8).
 *
 * <p>
 * The steps: the claim step reserves the amount on the payment with one conditional
 * statement and writes a {@code PENDING} refund, both with the claim's record (in the
 * claim in one statement, or in the claim transaction), or refuses (unknown or another
 * client's payment, not SUCCEEDED, more than is left) so that nothing is stored; the act
 * step calls the provider outside any transaction with the provider idempotency key
 * derived from the refund id; approved (201) moves the reservation to the refunded amount
 * and declined (402) gives it back, both in the fenced completion transaction; a refusal
 * before refunding or an unknown outcome (503) keeps the reservation and releases the
 * lease for a retry or the reconciler.
 *
 * <p>
 * Guarantee: refunded + in-flight refunds never exceed the payment's amount, whatever the
 * concurrency, across keys and instances. Thread-safe.
 */
@Service
public class RefundService {

	/** The operation's name, stored with each of its idempotency records. */
	public static final String OPERATION = "refund";

	private static final Logger log = LoggerFactory.getLogger(RefundService.class);

	private final IdempotencyService idempotency;

	private final Refunds refunds;

	private final RefundReservations reservations;

	private final PaymentService payments;

	private final PaymentGateway gateway;

	private final RefundResponses responses;

	private final OperationContext context;

	private final RefundMetrics metrics;

	private final ProviderMetrics calls;

	private final ReconciliationProperties reconciliation;

	private final ResourceTable<Refund> table;

	RefundService(IdempotencyService idempotency, Refunds refunds, RefundReservations reservations,
			PaymentService payments, PaymentGateway gateway, RefundResponses responses, OperationContext context,
			RefundMetrics metrics, ProviderMetrics calls, ReconciliationProperties reconciliation,
			ResourceTable<Refund> table) {
		this.table = table;
		this.context = context;
		this.calls = calls;
		this.idempotency = idempotency;
		this.refunds = refunds;
		this.reservations = reservations;
		this.payments = payments;
		this.gateway = gateway;
		this.responses = responses;
		this.metrics = metrics;
		this.reconciliation = reconciliation;
	}

	/**
	 * Refunds the payment, or answers what an earlier request with the same key decided.
	 * @param command the validated request
	 * @return the outcome to render
	 * @throws org.springframework.dao.DataAccessException if the database fails; the key
	 * is then either unclaimed (and nothing reserved) or held by a lease that a later
	 * retry takes over
	 */
	public RefundOutcome refund(RefundCommand command) {
		RefundOutcome.AmountNotSupported notSupported = amountNotSupported(command);
		if (notSupported != null) {
			return notSupported;
		}
		ClaimRequest request = new ClaimRequest(OperationContext.scope(command.clientId()), command.idempotencyKey(),
				command.fingerprint());
		return switch (this.idempotency.execute(new RefundOperation(command), request)) {
			case Execution.Completed<RefundOutcome> completed ->
				new RefundOutcome.Completed(completed.response(), completed.replayed());
			case Execution.KeyReused<RefundOutcome> reused -> new RefundOutcome.KeyReused();
			case Execution.InProgress<RefundOutcome> inProgress ->
				new RefundOutcome.InProgress(inProgress.retryAfter());
			case Execution.Refused<RefundOutcome> refused -> refused.reason();
			case Execution.Released<RefundOutcome> released -> released.reason();
		};
	}

	/**
	 * The refusal of an amount the provider cannot refund in the payment's currency,
	 * decided before the claim so that nothing is stored (docs/design.md section 5,
	 * "Amounts at the provider"). Only a provider that limits amounts costs this read of
	 * the payment; a refund of all that remains needs no check (the payment and its
	 * refunds were all amounts the provider took, so their difference is one too), and an
	 * unknown payment is left to the claim, which answers 404.
	 * @return the refusal, or {@code null} if the refund may be claimed
	 */
	private RefundOutcome.@Nullable AmountNotSupported amountNotSupported(RefundCommand command) {
		Long amount = command.amount();
		if (amount == null || !this.gateway.limitsAmounts()) {
			return null;
		}
		return this.payments.find(command.clientId(), command.paymentId())
			.map((payment) -> payment.amount().currency())
			.map((currency) -> {
				AmountLimits limits = this.gateway.amountLimits(currency);
				return limits.allows(amount) ? null
						: new RefundOutcome.AmountNotSupported(new Money(amount, currency), limits);
			})
			.orElse(null);
	}

	/**
	 * One page of a client's refunds of one of its payments, in a total order: oldest
	 * first by {@code created_at}, ties broken by id (docs/design.md section 8, "Listing
	 * refunds"). Each statement is a bounded range scan of the index on
	 * {@code (payment_id, created_at, id)}: at most {@code limit + 1} rows, however many
	 * refunds the payment has.
	 * @param clientId the calling client
	 * @param paymentId the payment
	 * @param limit the most refunds to return, 1 or more
	 * @param startingAfter the refund after which the page starts, or {@code null} for
	 * the first page
	 * @return the page; {@link RefundPage.PaymentNotFound} for an unknown or another
	 * client's payment; {@link RefundPage.UnknownCursor} if {@code startingAfter} is not
	 * a refund of this payment of this client
	 */
	public RefundPage findPage(ClientId clientId, PaymentId paymentId, int limit, @Nullable RefundId startingAfter) {
		if (limit < 1) {
			throw new IllegalArgumentException("A page holds at least one refund, not " + limit);
		}
		List<Refund> rows;
		if (startingAfter == null) {
			rows = this.refunds.findFirstPage(paymentId.value(), clientId.value(), limit + 1);
		}
		else {
			Optional<Refund> cursor = this.refunds.findByIdAndPaymentIdAndClientId(startingAfter.value(),
					paymentId.value(), clientId.value());
			if (cursor.isEmpty()) {
				return this.payments.find(clientId, paymentId).isPresent() ? new RefundPage.UnknownCursor()
						: new RefundPage.PaymentNotFound();
			}
			rows = this.refunds.findPageAfter(paymentId.value(), clientId.value(), cursor.get().createdAt(),
					startingAfter.value(), limit + 1);
		}
		// A refund row proves the payment is this client's (a refund carries its
		// payment's
		// client); only an empty first page needs the payment itself.
		if (rows.isEmpty() && startingAfter == null && this.payments.find(clientId, paymentId).isEmpty()) {
			return new RefundPage.PaymentNotFound();
		}
		boolean hasMore = rows.size() > limit;
		return new RefundPage.Found(hasMore ? rows.subList(0, limit) : rows, hasMore);
	}

	/**
	 * One refund of a client's payment. The same single statement whether the refund is
	 * unknown or another payment's or another client's, so neither the answer nor its
	 * timing tells them apart.
	 * @return the refund, or empty if it does not exist, belongs to another payment or
	 * another client
	 */
	public Optional<Refund> find(ClientId clientId, PaymentId paymentId, RefundId refundId) {
		return this.refunds.findByIdAndPaymentIdAndClientId(refundId.value(), paymentId.value(), clientId.value());
	}

	/** The refund operation's steps for one request. */
	private final class RefundOperation implements IdempotentOperation<Refund, RefundOutcome> {

		private final RefundCommand command;

		RefundOperation(RefundCommand command) {
			this.command = command;
		}

		@Override
		public String name() {
			return OPERATION;
		}

		@Override
		public ResourceTable<Refund> resource() {
			return RefundService.this.table;
		}

		/**
		 * A {@code PENDING} refund, which the engine inserts with the claim after the
		 * reservation, from which it takes its amount, currency and charge reference
		 * ({@link RefundTable}).
		 */
		@Override
		public Refund create(UUID resourceId) {
			return Refund.reserving(new RefundId(resourceId), this.command.paymentId(), this.command.clientId(),
					this.command.reason(), RefundService.this.context.now());
		}

		@Override
		public Object[] claimArguments(Refund refund) {
			return RefundTable.reservation(this.command.paymentId(), this.command.clientId(), this.command.amount());
		}

		/**
		 * Why the reservation matched no row, read after it; or {@code null} if that
		 * shows the reservation would now fit (a declined or failed refund gave its
		 * amount back in between): the engine then reserves again, so no answer says a
		 * refund exceeds an amount that covers it.
		 */
		@Override
		public @Nullable RefundOutcome refusal() {
			RefundOutcome refusal = RefundService.this.reservations.refusal(this.command.paymentId(),
					this.command.clientId());
			Long amount = this.command.amount();
			if (refusal instanceof RefundOutcome.ExceedsRefundable(long refundable)
					&& refundable >= ((amount != null) ? amount : 1L)) {
				return null;
			}
			return refusal;
		}

		/**
		 * One provider call at most, so the engine starts the act only while the lease
		 * has room for the worst-case call (docs/design.md section 4, "No act after its
		 * lease").
		 */
		@Override
		public Duration actBudget() {
			return RefundService.this.gateway.worstCaseCallDuration();
		}

		@Override
		public Action<RefundOutcome> act(Refund refund) {
			MDC.put("paymentId", refund.paymentId().toString());
			MDC.put("refundId", refund.id().toString());
			boolean pastWindow = pastRefundWindow(refund);
			if (refund.providerKeyReplayedAt() != null) {
				// A refund call would only be answered from what the provider saved under
				// the key; what the provider knows comes from a lookup.
				return settleByLookup(refund, pastWindow);
			}
			if (pastWindow) {
				return unresolved(refund, true, "older than the give-up window: left to reconciliation");
			}
			GatewayResult result = callProvider(refund, refund.chargeReference());
			return switch (result) {
				case GatewayResult.Approved approved -> new Action.Finish<>(succeeded(approved, refund));
				case GatewayResult.Declined declined -> new Action.Finish<>(declined(declined, refund));
				case GatewayResult.NotAttempted notAttempted -> unresolved(refund, false, notAttempted.reason());
				case GatewayResult.Unknown unknown ->
					unknown.replayed() ? unresolved(refund, unknown.reason(), replayed(refund.providerKeyGeneration()))
							: unresolved(refund, true, unknown.reason());
			};
		}

		/**
		 * The act step of a refund whose provider key was answered from what the provider
		 * saved: one lookup instead of a refund call. Found: finished as a refund call
		 * would be. Not found: proof that the provider has no refund for it (the request
		 * that executed under the key had ended before the replay, none executes after
		 * it, and a refund lookup reads the provider's own writes), so past the give-up
		 * window the refund fails, otherwise it moves to its next provider key generation
		 * in the fenced release and the client's next retry refunds under it.
		 */
		private Action<RefundOutcome> settleByLookup(Refund refund, boolean pastWindow) {
			return switch (lookup(refund)) {
				case GatewayResult.Approved approved -> new Action.Finish<>(succeeded(approved, refund));
				case GatewayResult.Declined declined -> new Action.Finish<>(declined(declined, refund));
				case GatewayResult.Unknown unknown -> unresolved(refund, true, "lookup: " + unknown.reason());
				case GatewayResult.NotAttempted notFound -> pastWindow ? new Action.Finish<>(failed())
						: unresolved(refund, "no refund under the replayed key: next generation",
								newProviderKeyGeneration(refund.providerKeyGeneration()));
			};
		}

		private Action<RefundOutcome> unresolved(Refund refund, boolean outcomeUnknown, String reason) {
			log.warn("Refund {} unresolved ({}): {}; reservation kept, lease released for a retry", refund.id(),
					outcomeUnknown ? "outcome unknown" : "not attempted", reason);
			return new Action.Release<>(new RefundOutcome.Unresolved(refund.id(),
					RefundService.this.idempotency.retryAfter(), outcomeUnknown));
		}

		private Action<RefundOutcome> unresolved(Refund refund, String reason, ReleaseStep step) {
			log.warn("Refund {} unresolved (outcome unknown): {}; reservation kept, lease released for a retry",
					refund.id(), reason);
			return new Action.Release<>(
					new RefundOutcome.Unresolved(refund.id(), RefundService.this.idempotency.retryAfter(), true), step);
		}

	}

	/**
	 * Records, in the fenced release, that the refund's key was answered from what the
	 * provider saved ({@link Refund#recordProviderKeyReplayed}).
	 */
	private ReleaseStep replayed(int generation) {
		return (id) -> {
			Refund refund = load(new RefundId(id));
			if (refund.recordProviderKeyReplayed(generation, this.context.now())) {
				this.refunds.saveAndFlush(refund);
				log.info("Refund {}: provider key generation {} answered from what the provider saved", id, generation);
			}
		};
	}

	/**
	 * The fenced release that moves a refund to its next provider key generation: runs
	 * inside the engine's release transaction, only while the lease the proof was made
	 * under still holds the record ({@link Refund#startNewProviderKeyGeneration}).
	 * @param from the generation the proof was made for
	 */
	ReleaseStep newProviderKeyGeneration(int from) {
		return (id) -> {
			Refund refund = load(new RefundId(id));
			refund.startNewProviderKeyGeneration(from, this.context.now());
			this.refunds.saveAndFlush(refund);
			log.warn("Refund {} moves to provider key generation {}: the provider has no refund for it", id,
					refund.providerKeyGeneration());
		};
	}

	private GatewayResult lookup(Refund refund) {
		return this.calls.providerCall("refund_lookup", refund.id(),
				() -> this.gateway.lookupRefund(refundRequest(refund)));
	}

	/** Approved: refund SUCCEEDED, its reservation refunded, 201 stored. */
	public FinishStep succeeded(GatewayResult.Approved approved) {
		return this.table.finish(succeeding(approved));
	}

	/**
	 * As {@link #succeeded(GatewayResult.Approved)}, written over the refund the act step
	 * read (docs/design.md section 4, "Completion in one statement").
	 */
	FinishStep succeeded(GatewayResult.Approved approved, Refund read) {
		return this.table.finish(read, succeeding(approved));
	}

	private Transition<Refund> succeeding(GatewayResult.Approved approved) {
		return announced(RefundStatus.SUCCEEDED, (refund) -> {
			refund.markSucceeded(approved.providerReference(), this.context.now());
			return this.responses.created(refund);
		});
	}

	/** Declined: refund DECLINED, its reservation given back, 402 stored. */
	public FinishStep declined(GatewayResult.Declined declined) {
		return this.table.finish(declining(declined));
	}

	/**
	 * As {@link #declined(GatewayResult.Declined)}, written over the refund the act step
	 * read.
	 */
	FinishStep declined(GatewayResult.Declined declined, Refund read) {
		return this.table.finish(read, declining(declined));
	}

	private Transition<Refund> declining(GatewayResult.Declined declined) {
		return announced(RefundStatus.DECLINED, (refund) -> {
			refund.markDeclined(declined.providerReference(), declined.declineCode(), this.context.now());
			return this.responses.declined(refund);
		});
	}

	/** Reconciliation gave up: refund FAILED, its reservation given back, 402 stored. */
	FinishStep failed() {
		return this.table.finish(announced(RefundStatus.FAILED, (refund) -> {
			refund.markFailed(this.context.now());
			return this.responses.failed(refund);
		}));
	}

	/**
	 * The refund's one move to {@code status}; the engine writes it with the settlement
	 * of its reservation ({@link RefundTable}), and it is announced (metric and log line)
	 * once that completion committed.
	 */
	private Transition<Refund> announced(RefundStatus status, Function<Refund, StoredResponse> move) {
		return Transition.of(move, (refund, response) -> {
			this.metrics.refundFinished(status);
			log.info("Refund {} completed: {} ({})", refund.id(), status, response.status());
		});
	}

	/**
	 * As for payments ({@link PaymentService}): a provider that forgets provider
	 * idempotency keys (Stripe: after 24 hours) is never sent a refund older than the
	 * reconciler's give-up window, so every refund attempt reaches the provider while it
	 * still remembers the refund's key.
	 */
	private boolean pastRefundWindow(Refund refund) {
		return this.gateway.providerKeyRetention().isPresent()
				&& !refund.createdAt().plus(this.reconciliation.giveUpAfter()).isAfter(this.context.now());
	}

	private GatewayResult callProvider(Refund refund, @Nullable String chargeReference) {
		return this.calls.providerCall("refund", refund.id(),
				() -> this.gateway.refund(refundRequest(refund, chargeReference)));
	}

	/**
	 * The refund as the provider is (or was) asked for it, with the charge of its
	 * payment; for the act step and the reconciler's lookup.
	 * @throws IllegalStateException if the payment has no provider reference (only a
	 * SUCCEEDED payment is refunded, so a broken invariant)
	 */
	RefundRequest refundRequest(Refund refund) {
		return refundRequest(refund, null);
	}

	/**
	 * As {@link #refundRequest(Refund)}, with the payment's charge reference when the
	 * caller already has it (the reservation returned it), so the payment is not read.
	 */
	private RefundRequest refundRequest(Refund refund, @Nullable String knownChargeReference) {
		if (knownChargeReference != null) {
			return refund.refundRequest(knownChargeReference);
		}
		Payment payment = this.payments.load(refund.paymentId());
		String chargeReference = payment.providerReference();
		if (chargeReference == null) {
			throw new IllegalStateException("Refunded payment " + payment.id() + " has no provider reference");
		}
		return refund.refundRequest(chargeReference);
	}

	/**
	 * A refund by id, whatever its client; for takeovers and the reconciler.
	 * @throws IllegalStateException if the refund does not exist
	 */
	public Refund load(RefundId refundId) {
		return this.refunds.findById(refundId.value())
			.orElseThrow(() -> new IllegalStateException("Claimed refund " + refundId + " does not exist"));
	}

}
