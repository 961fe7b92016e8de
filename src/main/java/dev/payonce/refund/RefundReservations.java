package dev.payonce.refund;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.payonce.client.ClientId;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.PaymentStatus;

/**
 * The refund amounts on a payment row: {@code refunded_amount} and
 * {@code refunds_in_flight} (docs/design.md section 8), and what is refunded outside
 * Payonce, {@code external_refunded_amount} (section 10), which every reservation
 * subtracts from what remains. Plain SQL, because the invariant (refunded + in flight
 * never exceeds the amount) must be one conditional statement, never a read followed by a
 * write: the reservation and its settlement are declared once, with the refund's row
 * ({@link RefundTable}), and run by the idempotency engine in a refund's claim and
 * completion. Every method runs in the caller's transaction.
 */
@Repository
class RefundReservations {

	private final JdbcClient jdbc;

	RefundReservations(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Why the reservation ({@link RefundTable}) wrote nothing.
	 * @return the refusal to answer
	 */
	RefundOutcome refusal(PaymentId paymentId, ClientId clientId) {
		return this.jdbc.sql("""
				SELECT status, %s AS refundable_statuses,
				    GREATEST(0, %s - refunded_amount - refunds_in_flight - external_refunded_amount) AS refundable
				FROM payments WHERE id = :paymentId AND client_id = :clientId
				""".formatted(RefundTable.REFUNDABLE, RefundTable.PAID))
			.param("paymentId", paymentId.value())
			.param("clientId", clientId.value())
			.query((rs, row) -> (!rs.getBoolean("refundable_statuses"))
					? (RefundOutcome) new RefundOutcome.PaymentNotRefundable(
							PaymentStatus.valueOf(rs.getString("status")))
					: new RefundOutcome.ExceedsRefundable(rs.getLong("refundable")))
			.optional()
			.orElseGet(RefundOutcome.PaymentNotFound::new);
	}

}
