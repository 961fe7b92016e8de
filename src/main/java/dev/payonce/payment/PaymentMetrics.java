package dev.payonce.payment;

import java.time.Duration;
import java.util.Locale;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.springframework.stereotype.Component;

/**
 * The payment module's meters: {@code payonce.payments} (payments that reached a final
 * status, by status), {@code payonce.refunds} (the same for refunds),
 * {@code payonce.provider.calls} (a timer of provider calls by operation and outcome).
 * Tags carry no identifiers, so cardinality stays fixed.
 */
@Component
class PaymentMetrics {

	private final MeterRegistry meters;

	PaymentMetrics(MeterRegistry meters) {
		this.meters = meters;
		for (PaymentStatus status : PaymentStatus.values()) {
			if (status != PaymentStatus.PENDING) {
				payments(status);
			}
		}
		// Every series exists from start-up, so a rate of unknown outcomes is never "no
		// data".
		for (RefundStatus status : RefundStatus.values()) {
			if (status != RefundStatus.PENDING) {
				refunds(status);
			}
		}
		for (String operation : new String[] { "charge", "lookup", "refund", "refund_lookup" }) {
			for (GatewayResult result : new GatewayResult[] { new GatewayResult.Approved("-"),
					new GatewayResult.Declined("-", "-"), new GatewayResult.NotAttempted("-"),
					new GatewayResult.Unknown("-") }) {
				providerCalls(operation, result);
			}
		}
	}

	void paymentFinished(PaymentStatus status) {
		payments(status).increment();
	}

	void refundFinished(RefundStatus status) {
		refunds(status).increment();
	}

	private Counter refunds(RefundStatus status) {
		return Counter.builder("payonce.refunds")
			.description("Refunds that reached a final status")
			.tag("status", status.name().toLowerCase(Locale.ROOT))
			.register(this.meters);
	}

	void providerCall(String operation, GatewayResult result, long nanos) {
		providerCalls(operation, result).record(Duration.ofNanos(nanos));
	}

	private Timer providerCalls(String operation, GatewayResult result) {
		return Timer.builder("payonce.provider.calls")
			.description("Calls to the payment provider by operation and outcome")
			.tag("operation", operation)
			.tag("outcome", outcome(result))
			.register(this.meters);
	}

	private Counter payments(PaymentStatus status) {
		return Counter.builder("payonce.payments")
			.description("Payments that reached a final status")
			.tag("status", status.name().toLowerCase(Locale.ROOT))
			.register(this.meters);
	}

	private static String outcome(GatewayResult result) {
		return switch (result) {
			case GatewayResult.Approved approved -> "approved";
			case GatewayResult.Declined declined -> "declined";
			case GatewayResult.NotAttempted notAttempted -> "not_attempted";
			case GatewayResult.Unknown unknown -> "unknown";
		};
	}

}
