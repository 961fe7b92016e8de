package dev.payonce.capture;

import org.slf4j.MDC;

import org.springframework.stereotype.Component;

import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.ResourceTable;
import dev.payonce.idempotency.StoredResponse;
import dev.payonce.payment.Payment;
import dev.payonce.payment.PaymentService;
import dev.payonce.provider.CaptureRequest;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.ProviderOperation;
import dev.payonce.provider.ProviderServices;

/**
 * The capture operation on the provider kernel (docs/design.md section 15): the capture
 * call with the charge of its payment, the capture lookup, and the responses a capture's
 * final status stores. Everything else (one call per provider key, lookups instead of
 * repeats, releases, new key generations, reconciliation) is {@link ProviderOperation}'s;
 * the reservation is settled by the completion update the engine makes with every
 * completion ({@link CaptureTable}). A capture lookup reads the provider's own writes, so
 * its settle time is zero.
 */
@Component
class CaptureCalls extends ProviderOperation<Capture, CaptureOutcome> {

	private final PaymentService payments;

	private final CaptureResponses responses;

	private final IdempotencyService idempotency;

	CaptureCalls(ResourceTable<Capture> table, Captures captures, ProviderServices services, PaymentService payments,
			CaptureResponses responses, IdempotencyService idempotency) {
		super(CaptureService.OPERATION, table, captures, services);
		this.payments = payments;
		this.responses = responses;
		this.idempotency = idempotency;
	}

	@Override
	protected GatewayResult send(Capture capture) {
		return services().gateway().capture(captureRequest(capture));
	}

	@Override
	protected GatewayResult lookUp(Capture capture) {
		return services().gateway().lookupCapture(captureRequest(capture));
	}

	@Override
	protected String callTag() {
		return "capture";
	}

	@Override
	protected StoredResponse response(Capture capture) {
		return switch (capture.status()) {
			case SUCCEEDED -> this.responses.created(capture);
			case DECLINED -> this.responses.declined(capture);
			case FAILED -> this.responses.failed(capture);
			case PENDING -> throw new IllegalStateException("Capture " + capture.id() + " is not final");
		};
	}

	/** The reservation stays; the client retries, or the reconciler settles. */
	@Override
	protected CaptureOutcome unresolved(Capture capture, GatewayResult reason) {
		return new CaptureOutcome.Unresolved(capture.id(), this.idempotency.retryAfter(),
				reason instanceof GatewayResult.Unknown);
	}

	/**
	 * A capture moves to a new provider key generation only once its key was answered
	 * from what the provider saved ({@link Capture#newGenerationNeedsReplay()}).
	 */
	@Override
	protected boolean reattemptsUnderNewKey(Capture capture) {
		return capture.providerKeyReplayedAt() != null;
	}

	@Override
	protected void logContext(Capture capture) {
		MDC.put("paymentId", capture.paymentId().toString());
		MDC.put("captureId", capture.id().toString());
	}

	/**
	 * The capture as the provider is (or was) asked for it, with the charge of its
	 * payment: the one the claim's reservation returned, or else read from the payment.
	 * What remained of the authorization is the claim's value, which the capture keeps,
	 * so every attempt under its provider idempotency key sends the same parameters
	 * whatever other captures did since; for a capture claimed before it was kept, the
	 * amount less what other captures took.
	 * @throws IllegalStateException if the payment has no provider reference (only an
	 * AUTHORIZED payment is captured, so a broken invariant)
	 */
	CaptureRequest captureRequest(Capture capture) {
		String chargeReference = capture.chargeReference();
		Long remaining = capture.remaining();
		if (chargeReference != null && remaining != null) {
			return capture.captureRequest(chargeReference, remaining);
		}
		Payment payment = this.payments.load(capture.paymentId());
		String reference = payment.providerReference();
		if (reference == null) {
			throw new IllegalStateException("Captured payment " + payment.id() + " has no provider reference");
		}
		if (remaining != null) {
			return capture.captureRequest(reference, remaining);
		}
		long capturedByOthers = payment.capturedAmount()
				- ((capture.status() == CaptureStatus.SUCCEEDED) ? capture.amount().minorUnits() : 0);
		return capture.captureRequest(reference, payment.amount().minorUnits() - capturedByOthers);
	}

}
