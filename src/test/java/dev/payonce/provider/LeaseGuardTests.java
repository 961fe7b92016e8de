package dev.payonce.provider;

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

	@Test
	void acceptsGiveUpWindowThatEndsBeforeStripeForgetsItsKeys() {
		assertThatNoException()
			.isThrownBy(() -> LeaseGuard.checkKeyRetention(Duration.ofSeconds(30), Duration.ofSeconds(23),
					reconciliation(Duration.ofHours(23), Duration.ofSeconds(5)), Duration.ofHours(24)));
	}

	@Test
	void refusesGiveUpWindowThatReachesStripesKeyRetention() {
		assertThatIllegalStateException()
			.isThrownBy(() -> LeaseGuard.checkKeyRetention(Duration.ofSeconds(30), Duration.ofSeconds(23),
					reconciliation(Duration.ofHours(24).minusSeconds(30), Duration.ofSeconds(5)), Duration.ofHours(24)))
			.withMessageContaining("payonce.reconciliation.give-up-after")
			.withMessageContaining("forgets its idempotency keys");
	}

	private static ReconciliationProperties reconciliation(Duration giveUpAfter, Duration leaseMargin) {
		return new ReconciliationProperties(true, Duration.ofSeconds(30), Duration.ofSeconds(30), giveUpAfter, 100,
				leaseMargin);
	}

}
