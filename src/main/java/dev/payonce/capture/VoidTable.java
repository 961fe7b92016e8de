package dev.payonce.capture;

import java.time.ZoneOffset;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.payonce.client.ClientId;
import dev.payonce.event.EventOutbox;
import dev.payonce.event.NewEvent;
import dev.payonce.idempotency.ResourceTable;
import dev.payonce.payment.PaymentId;

/**
 * The void's declaration for the idempotency engine (docs/design.md sections 4 and 15):
 * <ul>
 * <li>the claim update holds the payment for the void ({@code void_in_flight}): only an
 * AUTHORIZED payment of the client that no capture and no other void holds, locked by the
 * {@code FOR UPDATE} of its {@code FROM}; it returns the payment's charge reference. So
 * of a void and a capture racing, the one whose claim commits first wins and the other is
 * refused in its claim ({@link CaptureTable#CAPTURABLE});</li>
 * <li>the completion update lets the payment go and, when the provider voided, moves it
 * to {@code VOIDED}; it matches no row if the payment is not held by a void.</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
class VoidTable {

	/** The payment row's condition for a new void. */
	static final String VOIDABLE = "status = 'AUTHORIZED' AND captures_in_flight = 0 AND void_in_flight = false";

	@Bean
	ResourceTable<PaymentVoid> voidResource(JsonMapper json) {
		ResourceTable<PaymentVoid> table = ResourceTable.of(PaymentVoid.class)
			.claimUpdate("payments", "void_in_flight = true",
					"""
							(SELECT id FROM payments WHERE id = ? AND client_id = ? AND %s FOR UPDATE) AS target"""
						.formatted(VOIDABLE),
					"payments.id = target.id", Map.of("chargeReference", "provider_reference"),
					"EXISTS (SELECT 1 FROM payments WHERE id = ? AND client_id = ? AND %s)".formatted(VOIDABLE))
			.completionUpdate("payments", """
					void_in_flight = false, status = CASE WHEN ? THEN 'VOIDED' ELSE status END, updated_at = ?""",
					"id = ? AND void_in_flight",
					(paymentVoid) -> new Object[] { paymentVoid.status() == VoidStatus.SUCCEEDED,
							paymentVoid.updatedAt().atOffset(ZoneOffset.UTC), paymentVoid.paymentId().value() });
		return EventOutbox.onCompletion(table, (paymentVoid) -> NewEvent.of(paymentVoid.clientId().value(), "void",
				paymentVoid.status(), paymentVoid.id().value(), json.writeValueAsString(VoidReceipt.of(paymentVoid))));
	}

	/** The values of the claim's placeholders: its clauses', then its precheck's. */
	static Object[] hold(PaymentId paymentId, ClientId clientId) {
		return new Object[] { paymentId.value(), clientId.value(), paymentId.value(), clientId.value() };
	}

}
