package dev.payonce.refund;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Service;

import dev.payonce.client.ClientId;
import dev.payonce.idempotency.ClaimRequest;
import dev.payonce.idempotency.IdempotencyService.Execution;
import dev.payonce.idempotency.IdempotentOperation.FinishStep;
import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.IdempotentOperation;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.PaymentService;
import dev.payonce.provider.AmountLimits;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.Money;
import dev.payonce.provider.OperationContext;
import dev.payonce.provider.PaymentGateway;

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

	private final IdempotencyService idempotency;

	private final Refunds refunds;

	private final RefundReservations reservations;

	private final PaymentService payments;

	private final PaymentGateway gateway;

	private final RefundCalls calls;

	private final OperationContext context;

	RefundService(IdempotencyService idempotency, Refunds refunds, RefundReservations reservations,
			PaymentService payments, PaymentGateway gateway, RefundCalls calls, OperationContext context) {
		this.idempotency = idempotency;
		this.refunds = refunds;
		this.reservations = reservations;
		this.payments = payments;
		this.gateway = gateway;
		this.calls = calls;
		this.context = context;
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
		return switch (this.idempotency.execute(refundOf(command), request)) {
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

	/**
	 * One request's steps: the claim reserves the amount on the payment and writes a
	 * {@code PENDING} refund with the key, or is refused.
	 */
	private IdempotentOperation<Refund, RefundOutcome> refundOf(RefundCommand command) {
		return this.calls.new Request() {

			/**
			 * A {@code PENDING} refund, which the engine inserts with the claim after the
			 * reservation, from which it takes its amount, currency and charge reference
			 * ({@link RefundTable}).
			 */
			@Override
			public Refund create(UUID resourceId) {
				return Refund.reserving(new RefundId(resourceId), command.paymentId(), command.clientId(),
						command.reason(), RefundService.this.context.now());
			}

			@Override
			public Object[] claimArguments(Refund refund) {
				return RefundTable.reservation(command.paymentId(), command.clientId(), command.amount());
			}

			/**
			 * Why the reservation matched no row, read after it; or {@code null} if that
			 * shows the reservation would now fit (a declined or failed refund gave its
			 * amount back in between): the engine then reserves again, so no answer says
			 * a refund exceeds an amount that covers it.
			 */
			@Override
			public @Nullable RefundOutcome refusal() {
				RefundOutcome refusal = RefundService.this.reservations.refusal(command.paymentId(),
						command.clientId());
				Long amount = command.amount();
				if (refusal instanceof RefundOutcome.ExceedsRefundable(long refundable)
						&& refundable >= ((amount != null) ? amount : 1L)) {
					return null;
				}
				return refusal;
			}

		};
	}

	/**
	 * The fenced completion of an approved refund learned outside a refund call (a
	 * webhook event): refund SUCCEEDED, its reservation refunded, 201 stored.
	 * @param approved the provider's answer
	 * @return the finish step for the engine
	 */
	public FinishStep succeeded(GatewayResult.Approved approved) {
		return this.calls.succeeded(approved);
	}

	/**
	 * The fenced completion of a declined refund learned outside a refund call: refund
	 * DECLINED, its reservation given back, 402 stored.
	 * @param declined the provider's answer
	 * @return the finish step for the engine
	 */
	public FinishStep declined(GatewayResult.Declined declined) {
		return this.calls.declined(declined);
	}

	/**
	 * A refund by id, whatever its client; for takeovers and the reconciler.
	 * @throws IllegalStateException if the refund does not exist
	 */
	public Refund load(RefundId refundId) {
		return this.calls.load(refundId.value());
	}

}
