package dev.payonce.capture;

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
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.OperationContext;

/**
 * Captures manual payments exactly once per (client, idempotency key), as the
 * {@code capture} operation of the idempotency engine (docs/design.md section 15).
 *
 * <p>
 * The steps, those of a refund (section 8): the claim reserves the amount on the payment
 * with one conditional statement and writes a {@code PENDING} capture, or is refused
 * (unknown or another client's payment, not capturable, lapsed, more than is left) so
 * that nothing is stored; the act step calls the provider outside any transaction with
 * the provider idempotency key derived from the capture id; approved (201) moves the
 * reservation to the captured amount and declined (402) gives it back, both in the fenced
 * completion; a refusal before capturing or an unknown outcome (503) keeps the
 * reservation and releases the lease for a retry or the reconciler.
 *
 * <p>
 * Guarantee: captured + in-flight captures never exceed the payment's amount, whatever
 * the concurrency, across keys and instances. Thread-safe.
 */
@Service
public class CaptureService {

	/** The operation's name, stored with each of its idempotency records. */
	public static final String OPERATION = "capture";

	private final IdempotencyService idempotency;

	private final Captures captures;

	private final CaptureReservations reservations;

	private final PaymentService payments;

	private final CaptureCalls calls;

	private final OperationContext context;

	CaptureService(IdempotencyService idempotency, Captures captures, CaptureReservations reservations,
			PaymentService payments, CaptureCalls calls, OperationContext context) {
		this.idempotency = idempotency;
		this.captures = captures;
		this.reservations = reservations;
		this.payments = payments;
		this.calls = calls;
		this.context = context;
	}

	/**
	 * Captures the payment, or answers what an earlier request with the same key decided.
	 * @param command the validated request
	 * @return the outcome to render
	 * @throws org.springframework.dao.DataAccessException if the database fails; the key
	 * is then either unclaimed (and nothing reserved) or held by a lease that a later
	 * retry takes over
	 */
	public CaptureOutcome capture(CaptureCommand command) {
		ClaimRequest request = new ClaimRequest(OperationContext.scope(command.clientId()), command.idempotencyKey(),
				command.fingerprint());
		return switch (this.idempotency.execute(captureOf(command), request)) {
			case Execution.Completed<CaptureOutcome> completed ->
				new CaptureOutcome.Completed(completed.response(), completed.replayed());
			case Execution.KeyReused<CaptureOutcome> reused -> new CaptureOutcome.KeyReused();
			case Execution.InProgress<CaptureOutcome> inProgress ->
				new CaptureOutcome.InProgress(inProgress.retryAfter());
			case Execution.Refused<CaptureOutcome> refused -> refused.reason();
			case Execution.Released<CaptureOutcome> released -> released.reason();
		};
	}

	/**
	 * A client's payment's captures, oldest first.
	 * @return the captures, or empty if the payment is unknown or another client's
	 */
	public Optional<List<Capture>> findAll(ClientId clientId, PaymentId paymentId) {
		if (this.payments.find(clientId, paymentId).isEmpty()) {
			return Optional.empty();
		}
		return Optional
			.of(this.captures.findByPaymentIdAndClientIdOrderByCreatedAtAscIdAsc(paymentId.value(), clientId.value()));
	}

	/**
	 * One capture of a client's payment.
	 * @return the capture, or empty if it does not exist, belongs to another payment or
	 * another client
	 */
	public Optional<Capture> find(ClientId clientId, PaymentId paymentId, CaptureId captureId) {
		return this.captures.findByIdAndPaymentIdAndClientId(captureId.value(), paymentId.value(), clientId.value());
	}

	/**
	 * One request's steps: the claim reserves the amount on the payment and writes a
	 * {@code PENDING} capture with the key, or is refused.
	 */
	private IdempotentOperation<Capture, CaptureOutcome> captureOf(CaptureCommand command) {
		return this.calls.new Request() {

			@Override
			public Capture create(UUID resourceId) {
				return Capture.reserving(new CaptureId(resourceId), command.paymentId(), command.clientId(),
						CaptureService.this.context.now());
			}

			@Override
			public Object[] claimArguments(Capture capture) {
				return CaptureTable.reservation(command.paymentId(), command.clientId(), command.amount());
			}

			/**
			 * Why the reservation matched no row, read after it; or {@code null} if that
			 * shows the reservation would now fit (a declined capture gave its amount
			 * back in between): the engine then reserves again.
			 */
			@Override
			public @Nullable CaptureOutcome refusal() {
				CaptureOutcome refusal = CaptureService.this.reservations.refusal(command.paymentId(),
						command.clientId());
				Long amount = command.amount();
				if (refusal instanceof CaptureOutcome.ExceedsCapturable(long capturable)
						&& capturable >= ((amount != null) ? amount : 1L)) {
					return null;
				}
				return refusal;
			}

		};
	}

	/**
	 * The fenced completion of a capture's final outcome learned outside a capture call
	 * (a webhook event).
	 * @param outcome {@link GatewayResult.Approved} or {@link GatewayResult.Declined}
	 * @return the finish step for the engine
	 */
	public FinishStep finished(GatewayResult outcome) {
		return this.calls.finished(outcome);
	}

}
