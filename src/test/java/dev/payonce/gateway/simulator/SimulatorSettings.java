package dev.payonce.gateway.simulator;

import java.time.Duration;

import org.springframework.context.ApplicationContext;

import dev.payonce.gateway.simulator.SimulatorProperties.Fault;

/**
 * Sets the simulated provider's faults, timings and authorization window of a running
 * application, so that test classes that need different ones share one application
 * context instead of starting one each. A test sets them before its requests and calls
 * {@link #reset} after each test; every change counts provider calls from zero again, so
 * {@code every} counts the test's own calls.
 */
public final class SimulatorSettings {

	private static final Fault NEVER = new Fault(0, 0);

	private final ApplicationContext context;

	private SimulatorSettings(ApplicationContext context) {
		this.context = context;
	}

	/**
	 * The settings of the simulator in a context.
	 * @param context an application context whose provider is the simulator
	 * @return its settings
	 */
	public static SimulatorSettings of(ApplicationContext context) {
		return new SimulatorSettings(context);
	}

	/**
	 * Every provider call (a charge, a refund, or a lookup of either) takes this long; no
	 * fault.
	 * @param latency how long each provider call takes
	 */
	public void latency(Duration latency) {
		apply(new SimulatorProperties(latency, started().timeout(), Duration.ZERO, NEVER, NEVER, NEVER));
	}

	/**
	 * Faults on every Nth provider call, counted from now; no latency.
	 * @param refuseEvery refuse before processing on every Nth call, 0 for never
	 * @param errorBeforeChargeEvery answer a 5xx before acting on every Nth call, 0 for
	 * never
	 * @param timeoutAfterChargeEvery act, then time out, on every Nth call, 0 for never
	 */
	public void faults(int refuseEvery, int errorBeforeChargeEvery, int timeoutAfterChargeEvery) {
		apply(new SimulatorProperties(Duration.ZERO, started().timeout(), Duration.ZERO, new Fault(0, refuseEvery),
				new Fault(0, errorBeforeChargeEvery), new Fault(0, timeoutAfterChargeEvery)));
	}

	/**
	 * Authorizations of manual payments hold this long; the rest as the application was
	 * started.
	 * @param window how long an authorization holds before it lapses
	 */
	public void authorizationWindow(Duration window) {
		SimulatorProperties started = started();
		apply(new SimulatorProperties(started.latency(), started.timeout(), started.delayAfterCharge(),
				started.refuse(), started.errorBeforeCharge(), started.timeoutAfterCharge(), window));
	}

	/** Back to the settings the application was started with. */
	public void reset() {
		apply(started());
	}

	private SimulatorProperties started() {
		return this.context.getBean(SimulatorProperties.class);
	}

	private void apply(SimulatorProperties properties) {
		this.context.getBean(SimulatorPaymentGateway.class).reconfigure(properties);
	}

}
