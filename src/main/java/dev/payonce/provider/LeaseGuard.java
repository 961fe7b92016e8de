package dev.payonce.provider;

import java.time.Duration;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.stereotype.Component;

import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.ReconciliationProperties;

/**
 * Refuses to start Payonce with timings that could charge twice or lose a payment
 * (docs/design.md section 4): the lease must outlast the provider's worst-case call plus
 * a margin, or a slow call could outlive its lease while a takeover re-drives the
 * payment; and the reconciler's give-up window must outlast a lease plus a worst-case
 * call, or a charge still in flight could land on a payment already marked FAILED. For a
 * provider that forgets provider idempotency keys (Stripe prunes them after 24 hours),
 * the give-up window plus a lease and a worst-case call must end before the key is
 * forgotten: a payment is only re-charged while it is younger than the give-up window
 * (the payment module's {@code PaymentService}), and a re-sent charge under a forgotten
 * key would charge again.
 */
@Component
class LeaseGuard implements InitializingBean {

	private final IdempotencyService idempotency;

	private final PaymentGateway gateway;

	private final ReconciliationProperties reconciliation;

	LeaseGuard(IdempotencyService idempotency, PaymentGateway gateway, ReconciliationProperties reconciliation) {
		this.idempotency = idempotency;
		this.gateway = gateway;
		this.reconciliation = reconciliation;
	}

	@Override
	public void afterPropertiesSet() {
		check(this.idempotency.lease(), this.gateway.worstCaseCallDuration(), this.reconciliation);
		this.gateway.providerKeyRetention()
			.ifPresent((retention) -> checkKeyRetention(this.idempotency.lease(), this.gateway.worstCaseCallDuration(),
					this.reconciliation, retention));
	}

	/**
	 * Checks the timings.
	 * @throws IllegalStateException naming the settings to change
	 */
	static void check(Duration lease, Duration worstCaseCall, ReconciliationProperties reconciliation) {
		Duration minimumLease = worstCaseCall.plus(reconciliation.leaseMargin());
		if (lease.compareTo(minimumLease) <= 0) {
			throw new IllegalStateException("payonce.idempotency.lease (" + lease
					+ ") must be longer than the provider's worst-case call (" + worstCaseCall
					+ ") plus payonce.reconciliation.lease-margin (" + reconciliation.leaseMargin() + ")");
		}
		Duration minimumGiveUp = lease.plus(worstCaseCall);
		if (reconciliation.giveUpAfter().compareTo(minimumGiveUp) <= 0) {
			throw new IllegalStateException("payonce.reconciliation.give-up-after (" + reconciliation.giveUpAfter()
					+ ") must be longer than payonce.idempotency.lease plus the provider's worst-case call ("
					+ minimumGiveUp + ")");
		}
	}

	/**
	 * Checks that every charge attempt of a payment ends before the provider forgets its
	 * provider idempotency key.
	 * @param keyRetention how long the provider remembers a key (Stripe: 24 hours)
	 * @throws IllegalStateException naming the setting to change
	 */
	static void checkKeyRetention(Duration lease, Duration worstCaseCall, ReconciliationProperties reconciliation,
			Duration keyRetention) {
		Duration lastCharge = reconciliation.giveUpAfter().plus(lease).plus(worstCaseCall);
		if (lastCharge.compareTo(keyRetention) >= 0) {
			throw new IllegalStateException("payonce.reconciliation.give-up-after (" + reconciliation.giveUpAfter()
					+ ") plus payonce.idempotency.lease and the provider's worst-case call (" + lastCharge
					+ " in all) must end before the provider forgets its idempotency keys (" + keyRetention
					+ "): a charge re-sent after that could charge twice");
		}
	}

}
