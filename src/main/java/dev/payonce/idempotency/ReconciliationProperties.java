package dev.payonce.idempotency;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the reconciler, under {@code payonce.reconciliation.*} (docs/design.md
 * section 4, step 5).
 *
 * @param enabled whether the scheduled reconciler runs on this instance (default true)
 * @param interval the pause between two runs (default 30s)
 * @param staleAfter how long after its lease ended an IN_PROGRESS record is left to the
 * client's own retry before the reconciler takes it (default 30s)
 * @param giveUpAfter how long after its creation a payment the provider has no charge for
 * is marked FAILED (default 15m); must exceed the lease plus the provider's worst-case
 * call, so no charge can still be in flight
 * @param batchSize the most records one run takes over (default 100)
 * @param leaseMargin how much longer than the provider's worst-case call the idempotency
 * lease must be (default 5s); the application refuses to start otherwise
 */
@Validated
@ConfigurationProperties("payonce.reconciliation")
public record ReconciliationProperties(@DefaultValue("true") boolean enabled,
		@DefaultValue("30s") @DurationMin(millis = 10) Duration interval,
		@DefaultValue("30s") @DurationMin(seconds = 0) Duration staleAfter,
		@DefaultValue("15m") @DurationMin(seconds = 1) Duration giveUpAfter, @DefaultValue("100") @Min(1) int batchSize,
		@DefaultValue("5s") @DurationMin(seconds = 0) Duration leaseMargin) {

}
