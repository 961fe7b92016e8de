package dev.payonce;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;

/**
 * Reads Payonce's meters in a test's own application context.
 */
public final class MeterReadings {

	private final MeterRegistry meters;

	public MeterReadings(MeterRegistry meters) {
		this.meters = meters;
	}

	/**
	 * {@code payonce.idempotency.claims} of the payment operation with the given outcome.
	 */
	public double claims(String outcome) {
		return claims("payment", outcome);
	}

	/** {@code payonce.idempotency.claims} of an operation with the given outcome. */
	public double claims(String operation, String outcome) {
		var counter = Search.in(this.meters)
			.name("payonce.idempotency.claims")
			.tag("operation", operation)
			.tag("outcome", outcome)
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	/** {@code payonce.payments} with the given final status. */
	public double payments(String status) {
		return counter("payonce.payments", "status", status);
	}

	/** How many {@code payonce.provider.calls} had this operation and outcome. */
	public long providerCalls(String operation, String outcome) {
		var timer = Search.in(this.meters)
			.name("payonce.provider.calls")
			.tag("operation", operation)
			.tag("outcome", outcome)
			.timer();
		return (timer != null) ? timer.count() : 0;
	}

	private double counter(String name, String tag, String value) {
		var counter = Search.in(this.meters).name(name).tag(tag, value).counter();
		return (counter != null) ? counter.count() : 0;
	}

}
