package dev.payonce.refund;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

/**
 * The refund module's meter: {@code payonce.refunds} (refunds that reached a final
 * status, by status). Every series exists from start-up, so a rate of unknown outcomes is
 * never "no data"; tags carry no identifiers. Each counter is looked up in the registry
 * once and kept.
 */
@Component
class RefundMetrics {

	private final MeterRegistry meters;

	private final Map<RefundStatus, Counter> refunds = new ConcurrentHashMap<>();

	RefundMetrics(MeterRegistry meters) {
		this.meters = meters;
		for (RefundStatus status : RefundStatus.values()) {
			if (status != RefundStatus.PENDING) {
				refunds(status);
			}
		}
	}

	void refundFinished(RefundStatus status) {
		refunds(status).increment();
	}

	private Counter refunds(RefundStatus status) {
		return this.refunds.computeIfAbsent(status,
				(key) -> Counter.builder("payonce.refunds")
					.description("Refunds that reached a final status")
					.tag("status", status.name().toLowerCase(Locale.ROOT))
					.register(this.meters));
	}

}
