package dev.payonce.refund;

import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Currency;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.payonce.client.ClientId;
import dev.payonce.idempotency.ClaimUpdate;
import dev.payonce.idempotency.ResourceWrite;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.PaymentStatus;

/**
 * The refund amounts on a payment row: {@code refunded_amount} and
 * {@code refunds_in_flight} (docs/design.md section 8), and what is refunded outside
 * Payonce, {@code external_refunded_amount} (section 10), which every reservation
 * subtracts from what remains. Plain SQL, because the invariant (refunded + in flight
 * never exceeds the amount) must be one conditional statement, never a read followed by a
 * write. Every method runs in the caller's transaction.
 */
@Repository
class RefundReservations {

	private final JdbcClient jdbc;

	RefundReservations(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Reserves a refund on a SUCCEEDED payment of the client, in one statement: the row
	 * is locked by the {@code FOR UPDATE} of its {@code FROM}, so the default amount (all
	 * that remains) is computed from the newest committed row, and the {@code UPDATE}
	 * writes only if refunded + in flight + refunded outside Payonce + this refund stays
	 * within the amount. Concurrent reservations on the same payment, on any instance,
	 * queue on the row lock and each sees the ones before it. The statement is
	 * {@link #reservation}'s, which the claim in one statement runs instead.
	 * @param amount minor units to reserve, or {@code null} for all that remains
	 * @return the reservation, or empty if the payment is unknown, another client's, not
	 * SUCCEEDED, or has less left than asked
	 */
	Optional<Reservation> reserve(PaymentId paymentId, ClientId clientId, @Nullable Long amount) {
		ClaimUpdate update = reservation(paymentId, clientId, amount, () -> null);
		return this.jdbc
			.sql("UPDATE " + update.table() + " SET " + update.set() + " FROM " + update.from() + " WHERE "
					+ update.where() + " RETURNING " + String.join(", ", update.returning()))
			.params(update.args())
			.query((rs, row) -> new Reservation(rs.getLong("reserve"), Currency.getInstance(rs.getString("currency")),
					rs.getString("provider_reference")))
			.optional();
	}

	/**
	 * {@link #reserve}'s {@code UPDATE} as the claim update of a refund's claim in one
	 * statement (docs/design.md section 8): it returns {@code reserve} (minor units
	 * reserved), {@code currency} (the payment's, ISO 4217) and
	 * {@code provider_reference} (the payment's charge), and matches no row when
	 * {@link #reserve} would reserve nothing. Its precheck reads, without locking,
	 * whether it would reserve: a refund that plainly does not fit (the usual refusal) is
	 * then claimed in a transaction and refused there, without aborting a statement
	 * (docs/design.md section 4).
	 * @param amount minor units to reserve, or {@code null} for all that remains
	 * @param refusal why, when it matched no row ({@link #refusal})
	 * @return the update
	 */
	static ClaimUpdate reservation(PaymentId paymentId, ClientId clientId, @Nullable Long amount,
			Supplier<? extends @Nullable RefundOutcome> refusal) {
		return new ClaimUpdate("payments", "refunds_in_flight = payments.refunds_in_flight + target.reserve",
				"""
						(SELECT id, COALESCE(CAST(? AS bigint), amount - refunded_amount - refunds_in_flight - external_refunded_amount) AS reserve
						    FROM payments
						    WHERE id = ? AND client_id = ? AND status = 'SUCCEEDED'
						    FOR UPDATE) AS target""",
				"""
						payments.id = target.id AND target.reserve > 0
						  AND payments.refunded_amount + payments.refunds_in_flight + payments.external_refunded_amount
						    + target.reserve <= payments.amount""",
				List.of("reserve", "currency", "provider_reference"),
				List.of(new SqlParameterValue(Types.BIGINT, amount), paymentId.value(), clientId.value()), refusal, """
						EXISTS (SELECT 1 FROM payments
						    WHERE id = ? AND client_id = ? AND status = 'SUCCEEDED'
						      AND amount - refunded_amount - refunds_in_flight - external_refunded_amount
						        >= COALESCE(CAST(? AS bigint), 1))""",
				List.of(paymentId.value(), clientId.value(), new SqlParameterValue(Types.BIGINT, amount)));
	}

	/**
	 * Why {@link #reserve} wrote nothing, read in the same transaction.
	 * @return the refusal to answer
	 */
	RefundOutcome refusal(PaymentId paymentId, ClientId clientId) {
		return this.jdbc.sql("""
				SELECT status,
				    GREATEST(0, amount - refunded_amount - refunds_in_flight - external_refunded_amount) AS refundable
				FROM payments WHERE id = :paymentId AND client_id = :clientId
				""")
			.param("paymentId", paymentId.value())
			.param("clientId", clientId.value())
			.query((rs, row) -> (!PaymentStatus.SUCCEEDED.name().equals(rs.getString("status")))
					? (RefundOutcome) new RefundOutcome.PaymentNotRefundable(
							PaymentStatus.valueOf(rs.getString("status")))
					: new RefundOutcome.ExceedsRefundable(rs.getLong("refundable")))
			.optional()
			.orElseGet(RefundOutcome.PaymentNotFound::new);
	}

	/**
	 * Ends a reservation: moves it to {@code refunded_amount} when the provider refunded,
	 * or gives it back when the refund was declined or failed.
	 * @throws IllegalStateException if the payment does not hold such a reservation (a
	 * broken invariant)
	 */
	void settle(PaymentId paymentId, long amount, boolean refunded, Instant now) {
		ResourceWrite write = settlement(paymentId, amount, refunded, now);
		int updated = this.jdbc.sql("UPDATE " + write.table() + " SET " + write.set() + " WHERE " + write.where())
			.params(write.args())
			.update();
		if (updated != 1) {
			throw new IllegalStateException("Payment " + paymentId + " holds no refund reservation of " + amount);
		}
	}

	/**
	 * {@link #settle}'s {@code UPDATE}, for the engine's completion statement to run
	 * after the refund's own write ({@link RefundService}): it matches no row, and so the
	 * completion writes nothing, if the payment does not hold such a reservation.
	 */
	static ResourceWrite settlement(PaymentId paymentId, long amount, boolean refunded, Instant now) {
		return new ResourceWrite("payments", """
				refunds_in_flight = refunds_in_flight - ?,
				    refunded_amount = refunded_amount + ?, updated_at = ?""", "id = ? AND refunds_in_flight >= ?",
				List.of(amount, refunded ? amount : 0L, now.atOffset(ZoneOffset.UTC), paymentId.value(), amount));
	}

	/**
	 * An amount reserved on a payment.
	 *
	 * @param amount minor units reserved
	 * @param currency the payment's currency
	 * @param chargeReference the provider reference of the payment's charge, which a
	 * SUCCEEDED payment always has and never changes
	 */
	record Reservation(long amount, Currency currency, @Nullable String chargeReference) {
	}

}
