package dev.payonce.capture;

import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

import dev.payonce.idempotency.ClaimRequest;
import dev.payonce.idempotency.IdempotencyService.Execution;
import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.IdempotentOperation;
import dev.payonce.idempotency.IdempotentOperation.FinishStep;
import dev.payonce.payment.PaymentStatus;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.OperationContext;

/**
 * Voids manual payments' authorizations exactly once per (client, idempotency key), as
 * the {@code void} operation of the idempotency engine (docs/design.md section 15). The
 * claim holds the payment for the void (no capture in flight, none claimed while it
 * holds), the act step calls the provider outside any transaction, and the fenced
 * completion moves the payment to {@code VOIDED} or lets it go. Thread-safe.
 */
@Service
public class VoidService {

	/** The operation's name, stored with each of its idempotency records. */
	public static final String OPERATION = "void";

	private final IdempotencyService idempotency;

	private final VoidCalls calls;

	private final OperationContext context;

	private final JdbcClient jdbc;

	VoidService(IdempotencyService idempotency, VoidCalls calls, OperationContext context, JdbcClient jdbc) {
		this.idempotency = idempotency;
		this.calls = calls;
		this.context = context;
		this.jdbc = jdbc;
	}

	/**
	 * Voids the payment's authorization, or answers what an earlier request with the same
	 * key decided.
	 * @param command the validated request
	 * @return the outcome to render
	 * @throws org.springframework.dao.DataAccessException if the database fails
	 */
	public VoidOutcome voidPayment(VoidCommand command) {
		ClaimRequest request = new ClaimRequest(OperationContext.scope(command.clientId()), command.idempotencyKey(),
				command.fingerprint());
		return switch (this.idempotency.execute(voidOf(command), request)) {
			case Execution.Completed<VoidOutcome> completed ->
				new VoidOutcome.Completed(completed.response(), completed.replayed());
			case Execution.KeyReused<VoidOutcome> reused -> new VoidOutcome.KeyReused();
			case Execution.InProgress<VoidOutcome> inProgress -> new VoidOutcome.InProgress(inProgress.retryAfter());
			case Execution.Refused<VoidOutcome> refused -> refused.reason();
			case Execution.Released<VoidOutcome> released -> released.reason();
		};
	}

	/**
	 * The fenced completion of a void's final outcome learned outside a void call (a
	 * webhook event).
	 * @param outcome {@link GatewayResult.Approved} or {@link GatewayResult.Declined}
	 * @return the finish step for the engine
	 */
	public FinishStep finished(GatewayResult outcome) {
		return this.calls.finished(outcome);
	}

	private IdempotentOperation<PaymentVoid, VoidOutcome> voidOf(VoidCommand command) {
		return this.calls.new Request() {

			@Override
			public PaymentVoid create(UUID resourceId) {
				return PaymentVoid.pending(new VoidId(resourceId), command.paymentId(), command.clientId(),
						VoidService.this.context.now());
			}

			@Override
			public Object[] claimArguments(PaymentVoid paymentVoid) {
				return VoidTable.hold(command.paymentId(), command.clientId());
			}

			/** Why the hold matched no row: no such payment, or not voidable now. */
			@Override
			public @Nullable VoidOutcome refusal() {
				return VoidService.this.jdbc
					.sql("SELECT status FROM payments WHERE id = :paymentId AND client_id = :clientId")
					.param("paymentId", command.paymentId().value())
					.param("clientId", command.clientId().value())
					.query((rs,
							row) -> (VoidOutcome) new VoidOutcome.PaymentNotVoidable(
									PaymentStatus.valueOf(rs.getString("status"))))
					.optional()
					.orElseGet(VoidOutcome.PaymentNotFound::new);
			}

		};
	}

}
