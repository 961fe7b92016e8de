package dev.payonce.payment;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.payonce.idempotency.ReconciliationProperties;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

class LeaseGuardTests {

	@Test
	void acceptsTheDefaults() {
		assertThatNoException().isThrownBy(() -> LeaseGuard.check(Duration.ofSeconds(30), Duration.ofSeconds(10),
				reconciliation(Duration.ofMinutes(15), Duration.ofSeconds(5))));
	}

	@Test
	void refusesLeaseNotLongerThanWorstCaseCallPlusMargin() {
		assertThatIllegalStateException()
			.isThrownBy(() -> LeaseGuard.check(Duration.ofSeconds(15), Duration.ofSeconds(10),
					reconciliation(Duration.ofMinutes(15), Duration.ofSeconds(5))))
			.withMessageContaining("payonce.idempotency.lease");
	}

	@Test
	void refusesGiveUpWindowThatAChargeInFlightCouldOutlast() {
		assertThatIllegalStateException()
			.isThrownBy(() -> LeaseGuard.check(Duration.ofSeconds(30), Duration.ofSeconds(10),
					reconciliation(Duration.ofSeconds(40), Duration.ofSeconds(5))))
			.withMessageContaining("payonce.reconciliation.give-up-after");
	}

	private static ReconciliationProperties reconciliation(Duration giveUpAfter, Duration leaseMargin) {
		return new ReconciliationProperties(true, Duration.ofSeconds(30), Duration.ofSeconds(30), giveUpAfter, 100,
				leaseMargin);
	}

}
