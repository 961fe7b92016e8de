package dev.payonce.payment;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

/**
 * The payment module's meter: {@code payonce.payments} (payments that reached a final
 * status, by status). Every series exists from start-up, so a rate of it is never "no
 * data"; tags carry no identifiers. Each counter is looked up in the registry once and
 * kept: a registry lookup (tags sorted, meter filters applied, map searched) on every
 * payment cost more than the increment itself.
 */
@Component
class PaymentMetrics {

	private final MeterRegistry meters;

	private final Map<PaymentStatus, Counter> payments = new ConcurrentHashMap<>();

	PaymentMetrics(MeterRegistry meters) {
		this.meters = meters;
		for (PaymentStatus status : PaymentStatus.values()) {
			if (status != PaymentStatus.PENDING) {
				payments(status);
			}
		}
	}

	void paymentFinished(PaymentStatus status) {
		payments(status).increment();
	}

	private Counter payments(PaymentStatus status) {
		return this.payments.computeIfAbsent(status,
				(key) -> Counter.builder("payonce.payments")
					.description("Payments that reached a final status")
					.tag("status", status.name().toLowerCase(Locale.ROOT))
					.register(this.meters));
	}

}
