package dev.payonce.capture;

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
import dev.payonce.provider.CaptureSequence;
import dev.payonce.provider.ProviderServices;

/**
 * The capture's declaration for the idempotency engine, read from {@link Capture}'s
 * mapping once, at start-up, with its reservation on the payment row (docs/design.md
 * sections 4 and 15), the refund's ({@code RefundTable}) on other columns:
 * <ul>
 * <li>the claim update reserves the capture's amount on an AUTHORIZED payment of the
 * client whose authorization has not lapsed (by the database's clock) and which no void
 * holds (nor another capture, at a provider that takes captures one at a time,
 * {@link CaptureSequence}): the row is locked by the {@code FOR UPDATE} of its
 * {@code FROM}, so the default amount (all that remains) is computed from the newest
 * committed row, and the {@code UPDATE} writes only if captured + in flight + this
 * capture stays within the amount; it returns the amount reserved, the payment's
 * currency, its charge reference and what the authorization had left, which the capture
 * takes. Its precheck reads, without locking, whether it would reserve;</li>
 * <li>the completion update settles the reservation: moves it to {@code captured_amount}
 * when the provider captured (and a payment captured in full becomes {@code SUCCEEDED},
 * as does one whose provider captures once: {@link CaptureSequence#ONCE} released the
 * rest), or gives it back when the capture was declined or failed; it matches no row, and
 * so the completion writes nothing, if the payment does not hold such a reservation.</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
class CaptureTable {

	/** The payment row's condition for a new capture: authorized, held, not voided. */
	static final String CAPTURABLE = "status = 'AUTHORIZED' AND void_in_flight = false"
			+ " AND authorization_expires_at > statement_timestamp()";

	/**
	 * The payment row's condition for a new capture at a provider that takes captures in
	 * the given sequence: {@link #CAPTURABLE}, and no other capture in flight unless the
	 * provider takes them at once.
	 */
	static String capturable(CaptureSequence sequence) {
		return sequence.overlaps() ? CAPTURABLE : CAPTURABLE + " AND captures_in_flight = 0";
	}

	@Bean
	ResourceTable<Capture> captureResource(ProviderServices services, CaptureResponses responses) {
		CaptureSequence sequence = services.gateway().captureSequence();
		String capturable = capturable(sequence);
		ResourceTable<Capture> table = ResourceTable.of(Capture.class)
			.claimUpdate("payments", "captures_in_flight = payments.captures_in_flight + target.reserve", """
					(SELECT id, COALESCE(CAST(? AS bigint), amount - captured_amount - captures_in_flight) AS reserve,
					        amount - captured_amount - captures_in_flight AS remaining
					    FROM payments
					    WHERE id = ? AND client_id = ? AND %s
					    FOR UPDATE) AS target""".formatted(capturable), """
					payments.id = target.id AND target.reserve > 0
					  AND payments.captured_amount + payments.captures_in_flight + target.reserve <= payments.amount""",
					Map.of("amount", "reserve", "currency", "currency", "chargeReference", "provider_reference",
							"remaining", "remaining"),
					"""
							EXISTS (SELECT 1 FROM payments
							    WHERE id = ? AND client_id = ? AND %s
							      AND amount - captured_amount - captures_in_flight >= COALESCE(CAST(? AS bigint), 1))"""
						.formatted(capturable))
			.completionUpdate("payments", """
					captures_in_flight = captures_in_flight - ?, captured_amount = captured_amount + ?,
					    status = CASE WHEN captured_amount + ? = amount OR ? THEN 'SUCCEEDED' ELSE status END,
					    updated_at = ?""", "id = ? AND captures_in_flight >= ?", (capture) -> {
				long amount = capture.amount().minorUnits();
				boolean succeeded = capture.status() == CaptureStatus.SUCCEEDED;
				long captured = succeeded ? amount : 0L;
				// A provider that captures once released the rest: captured for good.
				boolean releasedTheRest = succeeded && sequence.releasesTheRest();
				return new Object[] { amount, captured, captured, releasedTheRest,
						capture.updatedAt().atOffset(ZoneOffset.UTC), capture.paymentId().value(), amount };
			});
		return EventOutbox.onCompletion(table, (capture) -> NewEvent.of(capture.clientId().value(), "capture",
				capture.status(), capture.id().value(), responses.receipt(capture)));
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
