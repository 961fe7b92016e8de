package dev.payonce.gateway.simulator;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the simulated provider, under {@code payonce.gateway.simulator.*}.
 *
 * @param latency how long each charge takes before the provider answers (default 0)
 */
@Validated
@ConfigurationProperties("payonce.gateway.simulator")
public record SimulatorProperties(@DefaultValue("0s") Duration latency) {

	/**
	 * Checks the latency.
	 * @throws IllegalArgumentException if the latency is negative
	 */
	public SimulatorProperties {
		if (latency.isNegative()) {
			throw new IllegalArgumentException(
					"payonce.gateway.simulator.latency must not be negative, got " + latency);
		}
	}

}
