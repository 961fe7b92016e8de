package dev.payonce.refund;

import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

import org.springframework.stereotype.Component;

import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.ResourceTable;
import dev.payonce.idempotency.StoredResponse;
import dev.payonce.payment.Payment;
import dev.payonce.payment.PaymentService;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.ProviderOperation;
import dev.payonce.provider.ProviderServices;
import dev.payonce.provider.RefundRequest;

/**
 * The refund operation on the provider kernel (docs/design.md section 8): the refund call
 * with the charge of its payment, the refund lookup, and the responses a refund's final
 * status stores. Everything else (one call per provider key, lookups instead of repeats,
 * releases, new key generations, reconciliation) is {@link ProviderOperation}'s; the
 * reservation is settled by the completion update the engine makes with every completion
 * ({@link RefundTable}). A refund lookup reads the provider's own writes, so its settle
 * time is zero.
 */
@Component
class RefundCalls extends ProviderOperation<Refund, RefundOutcome> {

	private final PaymentService payments;

	private final RefundResponses responses;

	private final IdempotencyService idempotency;

	RefundCalls(ResourceTable<Refund> table, Refunds refunds, ProviderServices services, PaymentService payments,
			RefundResponses responses, IdempotencyService idempotency) {
		super(RefundService.OPERATION, table, refunds, services);
		this.payments = payments;
		this.responses = responses;
		this.idempotency = idempotency;
	}

	@Override
	protected GatewayResult send(Refund refund) {
		return services().gateway().refund(refundRequest(refund, refund.chargeReference()));
	}

	@Override
	protected GatewayResult lookUp(Refund refund) {
		return services().gateway().lookupRefund(refundRequest(refund));
	}

	@Override
	protected String callTag() {
		return "refund";
	}

	@Override
	protected StoredResponse response(Refund refund) {
		return switch (refund.status()) {
			case SUCCEEDED -> this.responses.created(refund);
			case DECLINED -> this.responses.declined(refund);
			case FAILED -> this.responses.failed(refund);
			case PENDING -> throw new IllegalStateException("Refund " + refund.id() + " is not final");
		};
	}

	/** The reservation stays; the client retries, or the reconciler settles. */
	@Override
	protected RefundOutcome unresolved(Refund refund, GatewayResult reason) {
		return (reason instanceof GatewayResult.Unknown)
				? new RefundOutcome.OutcomeUnknown(refund.id(), this.idempotency.retryAfter())
				: new RefundOutcome.ProviderUnavailable(refund.id(), this.idempotency.retryAfter());
	}

	/**
	 * A refund moves to a new provider key generation only once its key was answered from
	 * what the provider saved ({@link Refund#newGenerationNeedsReplay()}).
	 */
	@Override
	protected boolean reattemptsUnderNewKey(Refund refund) {
		return refund.providerKeyReplayedAt() != null;
	}

	@Override
	protected void logContext(Refund refund) {
		MDC.put("paymentId", refund.paymentId().toString());
		MDC.put("refundId", refund.id().toString());
	}

	/**
	 * The refund as the provider was asked for it, for the reconciler's lookup and the
	 * extra-refund check.
	 * @throws IllegalStateException if the payment has no provider reference
	 */
	RefundRequest refundRequest(Refund refund) {
		return refundRequest(refund, null);
	}

	/**
	 * The refund as the provider is (or was) asked for it, with the charge of its
	 * payment: the one the claim's reservation returned, or else read from the payment.
	 * @throws IllegalStateException if the payment has no provider reference (only a
	 * SUCCEEDED payment is refunded, so a broken invariant)
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

}
