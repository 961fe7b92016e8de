package dev.payonce.webhook;

import java.time.Duration;

import org.springframework.stereotype.Component;

import dev.payonce.idempotency.Lease;
import dev.payonce.idempotency.ReconciliationStep;
import dev.payonce.idempotency.ReconciliationStep.Settlement;

/**
 * The {@value ProviderEvents#OPERATION} operation's reconciliation step (docs/design.md,
 * "Webhooks"): completes an event's record that a crash left {@code IN_PROGRESS} and that
 * the provider never delivered again, so that no record is held forever.
 *
 * <p>
 * It waits {@link #RETRY_WINDOW} after the lease ended, as long as Stripe retries an
 * unacknowledged event in live mode (three days), since the provider's redelivery is the
 * normal way back and the only one that still has the event. It then stores the
 * acknowledgement without applying anything: the event's content is not kept, and it need
 * not be, because a payment or refund still PENDING has its own record, which its own
 * reconciliation settles by looking it up at the provider. A later redelivery (a manual
 * resend) replays the acknowledgement, or once the record expired runs again and only
 * settles what is still PENDING.
 */
@Component
class WebhookEventReconciliation implements ReconciliationStep {

	/** How long Stripe retries an unacknowledged event in live mode. */
	static final Duration RETRY_WINDOW = Duration.ofDays(3);

	@Override
	public String operation() {
		return ProviderEvents.OPERATION;
	}

	@Override
	public Settlement settle(Lease lease) {
		return new Settlement.GaveUp((id) -> ProviderEvents.ACKNOWLEDGED);
	}

	@Override
	public Duration settleTime() {
		return RETRY_WINDOW;
	}

}
