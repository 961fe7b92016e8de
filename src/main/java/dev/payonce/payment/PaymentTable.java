package dev.payonce.payment;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.payonce.event.EventOutbox;
import dev.payonce.event.NewEvent;
import dev.payonce.idempotency.ResourceTable;

/**
 * The payment's declaration for the idempotency engine, read from {@link Payment}'s
 * mapping once, at start-up (docs/design.md section 4): the engine inserts a new payment
 * with its claim, reloads it for a takeover and writes its completion.
 */
@Configuration(proxyBeanMethods = false)
class PaymentTable {

	@Bean
	ResourceTable<Payment> paymentResource(PaymentResponses responses) {
		ResourceTable<Payment> table = ResourceTable.of(Payment.class);
		return EventOutbox.onCompletion(table, (payment) -> NewEvent.of(payment.clientId().value(), "payment",
				payment.status(), payment.id().value(), responses.receipt(payment)));
	}

}
