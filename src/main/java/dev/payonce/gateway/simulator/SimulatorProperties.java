package dev.payonce.gateway.simulator;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the simulated provider, under {@code payonce.gateway.simulator.*}.
 *
 * <p>
 * A provider call (a charge or a refund) is bounded by {@code timeout}, like a real HTTP
 * client's: latency or a delay after the charge that reaches it ends the call as an
 * unknown outcome. Each fault can fire at random ({@code rate}, a probability from 0 to
 * 1) and deterministically on every Nth provider call, charges and refunds counted
 * together ({@code every}, 0 for never); either one firing is enough.
 *
 * @param latency how long each provider call (a charge, a refund, or a lookup of either)
 * takes before the provider acts or answers (default 0)
 * @param timeout the simulated client timeout of one provider call (default 10s)
 * @param delayAfterCharge how long the provider takes to answer after writing a new
 * charge to its ledger (default 0); lets a test kill the process at that moment
 * @param refuse refuse before charging: connection refused, 429 ({@code NotAttempted})
 * @param errorBeforeCharge fail with a 5xx before charging ({@code Unknown}, nothing
 * charged)
 * @param timeoutAfterCharge charge, then time out ({@code Unknown} while the ledger holds
 * the charge)
 * @param authorizationWindow how long an authorization made for a manual payment holds
 * before it lapses (default 7 days, docs/design.md section 15)
 */
@Validated
@ConfigurationProperties("payonce.gateway.simulator")
public record SimulatorProperties(@DefaultValue("0s") Duration latency, @DefaultValue("10s") Duration timeout,
		@DefaultValue("0s") Duration delayAfterCharge, @DefaultValue Fault refuse,
		@DefaultValue Fault errorBeforeCharge, @DefaultValue Fault timeoutAfterCharge,
		@DefaultValue("7d") Duration authorizationWindow) {

	/**
	 * Checks the durations.
	 * @throws IllegalArgumentException if a duration is negative or the timeout or the
	 * authorization window is not positive
	 */
	@ConstructorBinding
	public SimulatorProperties {
		if (!authorizationWindow.isPositive()) {
			throw new IllegalArgumentException(
					"payonce.gateway.simulator.authorization-window must be positive, got " + authorizationWindow);
		}
		if (latency.isNegative() || delayAfterCharge.isNegative()) {
			throw new IllegalArgumentException(
					"payonce.gateway.simulator latency and delay-after-charge must not be negative");
		}
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("payonce.gateway.simulator.timeout must be positive, got " + timeout);
		}
	}

	/**
	 * Settings with the default authorization window of 7 days.
	 * @param latency how long each provider call takes
	 * @param timeout the simulated client timeout of one provider call
	 * @param delayAfterCharge how long the provider takes to answer after a new charge
	 * @param refuse refuse before charging
	 * @param errorBeforeCharge fail with a 5xx before charging
	 * @param timeoutAfterCharge charge, then time out
	 */
	public SimulatorProperties(Duration latency, Duration timeout, Duration delayAfterCharge, Fault refuse,
			Fault errorBeforeCharge, Fault timeoutAfterCharge) {
		this(latency, timeout, delayAfterCharge, refuse, errorBeforeCharge, timeoutAfterCharge, Duration.ofDays(7));
	}

	/**
	 * One injected fault.
	 *
	 * @param rate the probability, 0 to 1, that a provider call meets the fault (default
	 * 0)
	 * @param every meet the fault on every Nth provider call, 0 for never (default 0)
	 */
	public record Fault(@DefaultValue("0") double rate, @DefaultValue("0") int every) {

		/**
		 * Checks the ranges.
		 * @throws IllegalArgumentException if {@code rate} is outside 0 to 1 or
		 * {@code every} is negative
		 */
		public Fault {
			if (rate < 0 || rate > 1) {
				throw new IllegalArgumentException("A simulator fault rate must be between 0 and 1, got " + rate);
			}
			if (every < 0) {
				throw new IllegalArgumentException("A simulator fault's every must be 0 or more, got " + every);
			}
		}

	}

}
