package dev.payonce.refund;

import java.sql.Types;
import java.time.ZoneOffset;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.SqlParameterValue;

import dev.payonce.client.ClientId;
import dev.payonce.event.EventOutbox;
import dev.payonce.event.NewEvent;
import dev.payonce.idempotency.ResourceTable;
import dev.payonce.payment.PaymentId;

/**
 * The refund's declaration for the idempotency engine, read from {@link Refund}'s mapping
 * once, at start-up, with its reservation on the payment row (docs/design.md sections 4
 * and 8):
 * <ul>
 * <li>the claim update reserves the refund's amount on a payment of the client with money
 * taken ({@link #REFUNDABLE}; of a manual payment only what its captures took,
 * {@link #PAID}): the row is locked by the {@code FOR UPDATE} of its {@code FROM}, so the
 * default amount (all that remains) is computed from the newest committed row, and the
 * {@code UPDATE} writes only if refunded + in flight + refunded outside Payonce + this
 * refund stays within the amount; it returns the amount reserved, the payment's currency
 * and its charge reference, which the refund takes. Its precheck reads, without locking,
 * whether it would reserve, so that a refund that plainly does not fit is refused in a
 * claim transaction without aborting a statement;</li>
 * <li>the completion update settles the reservation: moves it to {@code refunded_amount}
 * when the provider refunded, or gives it back when the refund was declined or failed; it
 * matches no row, and so the completion writes nothing, if the payment does not hold such
 * a reservation.</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
class RefundTable {

	/**
	 * What of a payment is refundable at most: its amount, or for a manual payment what
	 * its captures took (docs/design.md section 15): refunds apply only to captured
	 * money.
	 */
	static final String PAID = "(CASE WHEN capture_method = 'manual' THEN captured_amount ELSE amount END)";

	/**
	 * The statuses of a payment with money to refund: SUCCEEDED, and a manual payment
	 * partly captured, still AUTHORIZED or VOIDED after its captures.
	 */
	static final String REFUNDABLE = "status IN ('SUCCEEDED', 'AUTHORIZED', 'VOIDED')";

	@Bean
	ResourceTable<Refund> refundResource(RefundResponses responses) {
		ResourceTable<Refund> table = ResourceTable.of(Refund.class)
			.claimUpdate("payments", "refunds_in_flight = payments.refunds_in_flight + target.reserve",
					"""
							(SELECT id, COALESCE(CAST(? AS bigint), %1$s - refunded_amount - refunds_in_flight - external_refunded_amount) AS reserve
							    FROM payments
							    WHERE id = ? AND client_id = ? AND %2$s
							    FOR UPDATE) AS target"""
						.formatted(PAID, REFUNDABLE),
					"""
							payments.id = target.id AND target.reserve > 0
							  AND payments.refunded_amount + payments.refunds_in_flight + payments.external_refunded_amount
							    + target.reserve <= (CASE WHEN payments.capture_method = 'manual'
							      THEN payments.captured_amount ELSE payments.amount END)""",
					Map.of("amount", "reserve", "currency", "currency", "chargeReference", "provider_reference"), """
							EXISTS (SELECT 1 FROM payments
							    WHERE id = ? AND client_id = ? AND %2$s
							      AND %1$s - refunded_amount - refunds_in_flight - external_refunded_amount
							        >= COALESCE(CAST(? AS bigint), 1))""".formatted(PAID, REFUNDABLE))
			.completionUpdate("payments", """
					refunds_in_flight = refunds_in_flight - ?,
					    refunded_amount = refunded_amount + ?, updated_at = ?""", "id = ? AND refunds_in_flight >= ?",
					(refund) -> {
						long amount = refund.amount().minorUnits();
						return new Object[] { amount, (refund.status() == RefundStatus.SUCCEEDED) ? amount : 0L,
								refund.updatedAt().atOffset(ZoneOffset.UTC), refund.paymentId().value(), amount };
					});
		return EventOutbox.onCompletion(table, (refund) -> NewEvent.of(refund.clientId().value(), "refund",
				refund.status(), refund.id().value(), responses.receipt(refund)));
	}

	/**
	 * The values of the reservation's placeholders for one request: its clauses', then
	 * its precheck's.
	 * @param amount minor units to reserve, or {@code null} for all that remains
	 */
	static Object[] reservation(PaymentId paymentId, ClientId clientId, @Nullable Long amount) {
		SqlParameterValue reserve = new SqlParameterValue(Types.BIGINT, amount);
		return new Object[] { reserve, paymentId.value(), clientId.value(), paymentId.value(), clientId.value(),
				reserve };
	}

}
