package dev.payonce.payment;

import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Service;

import dev.payonce.client.ClientId;
import dev.payonce.idempotency.ClaimRequest;
import dev.payonce.idempotency.IdempotencyService.Execution;
import dev.payonce.idempotency.IdempotentOperation.FinishStep;
import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.IdempotentOperation;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.OperationContext;
import dev.payonce.provider.PaymentGateway;

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
 * ({@link Charges}). A payment older than the reconciler's give-up window is never sent
 * to a provider that forgets keys ({@link PaymentGateway#providerKeyRetention}).
 *
 * <p>
 * Thread-safe; correct with any number of concurrent requests and application instances
 * sharing one database.
 */
@Service
public class PaymentService {

	/** The operation's name, stored with each of its idempotency records. */
	public static final String OPERATION = "payment";

	private final IdempotencyService idempotency;

	private final Payments payments;

	private final Charges charges;

	private final OperationContext context;

	private final PaymentGateway gateway;

	PaymentService(IdempotencyService idempotency, Payments payments, Charges charges, OperationContext context,
			PaymentGateway gateway) {
		this.idempotency = idempotency;
		this.payments = payments;
		this.charges = charges;
		this.context = context;
		this.gateway = gateway;
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
		return switch (this.idempotency.execute(charge(command), request)) {
			case Execution.Completed<GatewayResult> completed ->
				new PaymentOutcome.Completed(completed.response(), completed.replayed());
			case Execution.KeyReused<GatewayResult> reused -> new PaymentOutcome.KeyReused();
			case Execution.InProgress<GatewayResult> inProgress ->
				new PaymentOutcome.InProgress(inProgress.retryAfter());
			case Execution.Released<GatewayResult> released -> unresolved(released);
			case Execution.Refused<GatewayResult> refused ->
				throw new IllegalStateException("The payment operation never refuses a claim");
		};
	}

	/**
	 * One request's steps: the claim writes a {@code PENDING} payment with the key, to be
	 * charged at once or only authorized (docs/design.md section 15).
	 */
	private IdempotentOperation<Payment, GatewayResult> charge(PaymentCommand command) {
		return this.charges.new Request() {
			@Override
			public Payment create(UUID resourceId) {
				PaymentId id = new PaymentId(resourceId);
				return switch (command.capture()) {
					case AUTOMATIC -> Payment.pending(id, command.clientId(), command.orderId(), command.amount(),
							command.paymentMethod(), PaymentService.this.context.now());
					case MANUAL -> Payment.authorizing(id, command.clientId(), command.orderId(), command.amount(),
							command.paymentMethod(), PaymentService.this.gateway.authorizationWindow(),
							PaymentService.this.context.now());
				};
			}
		};
	}

	/**
	 * The outcome of a released attempt: the provider refused before charging, or may
	 * have charged.
	 */
	private static PaymentOutcome unresolved(Execution.Released<GatewayResult> released) {
		PaymentId id = new PaymentId(released.resourceId());
		return (released.reason() instanceof GatewayResult.Unknown)
				? new PaymentOutcome.OutcomeUnknown(id, released.retryAfter())
				: new PaymentOutcome.ProviderUnavailable(id, released.retryAfter());
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

	/**
	 * The fenced completion of a final outcome learned outside a charge call (a webhook
	 * event, a lookup).
	 * @param outcome {@link GatewayResult.Approved} or {@link GatewayResult.Declined}
	 * @return the finish step for the engine
	 * @throws IllegalArgumentException for an outcome that is not final
	 */
	public FinishStep finished(GatewayResult outcome) {
		return this.charges.finished(outcome);
	}

	/**
	 * A payment by id, whatever its client; for takeovers and the reconciler.
	 * @throws IllegalStateException if the payment does not exist
	 */
	public Payment load(PaymentId paymentId) {
		return this.charges.load(paymentId.value());
	}

}
