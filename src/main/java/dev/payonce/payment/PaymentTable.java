package dev.payonce.payment;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.payonce.idempotency.ResourceTable;

/**
 * The payment's declaration for the idempotency engine, read from {@link Payment}'s
 * mapping once, at start-up (docs/design.md section 4): the engine inserts a new payment
 * with its claim, reloads it for a takeover and writes its completion.
 */
@Configuration(proxyBeanMethods = false)
class PaymentTable {

	@Bean
	ResourceTable<Payment> paymentResource() {
		return ResourceTable.of(Payment.class);
	}

}
