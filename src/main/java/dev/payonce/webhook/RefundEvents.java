package dev.payonce.webhook;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

import dev.payonce.event.EventOutbox;
import dev.payonce.event.NewEvent;
import dev.payonce.idempotency.IdempotentOperation.Action;
import dev.payonce.idempotency.IdempotentOperation.FinishStep;
import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.StoredResponse;
import dev.payonce.payment.Payment;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.PaymentService;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.OperationContext;
import dev.payonce.provider.ProviderEvent;
import dev.payonce.provider.ProviderEventEffect;
import dev.payonce.refund.Refund;
import dev.payonce.refund.RefundId;
import dev.payonce.refund.RefundResponses;
import dev.payonce.refund.RefundService;
import dev.payonce.refund.RefundStatus;
import dev.payonce.refund.Refunds;

/**
 * The act steps of events about refunds ({@link ProviderEvents}): one that names a
 * Payonce refund settles it if PENDING, and gives back a SUCCEEDED refund the provider
 * reports failed; one about refunds made outside Payonce records each once by its
 * provider reference against the payment (docs/design.md section 10, "Money moved outside
 * Payonce").
 */
@Component
class RefundEvents {

	private static final Logger log = LoggerFactory.getLogger(RefundEvents.class);

	private final Refunds refunds;

	private final RefundService refundService;

	private final PaymentService paymentService;

	private final IdempotencyService idempotency;

	private final ProviderRefunds providerRefunds;

	private final WebhookMetrics metrics;

	private final EventOutbox outbox;

	private final RefundResponses responses;

	RefundEvents(Refunds refunds, RefundService refundService, PaymentService paymentService,
			IdempotencyService idempotency, ProviderRefunds providerRefunds, WebhookMetrics metrics, EventOutbox outbox,
			RefundResponses responses) {
		this.outbox = outbox;
		this.responses = responses;
		this.refunds = refunds;
		this.refundService = refundService;
		this.paymentService = paymentService;
		this.idempotency = idempotency;
		this.providerRefunds = providerRefunds;
		this.metrics = metrics;
	}

	Action<ProviderEventEffect> act(Delivery delivery, ProviderEvent.Subject.OfRefund subject) {
		ProviderEvent event = delivery.event();
		RefundId refundId = new RefundId(subject.refundId());
		Optional<Refund> refund = this.refunds.findById(refundId.value());
		if (refund.isEmpty()) {
			log.warn("Webhook event {} ({}) names refund {}, which does not exist", event.eventId(), event.eventType(),
					refundId);
			return delivery.ignore(null, refundId.value(), "unknown refund");
		}
		UUID paymentId = refund.get().paymentId().value();
		if (!subject.object().matches(refund.get().amount(), refund.get().providerReference())) {
			log.warn("Webhook event {} ({}) names refund {} but its object's amount, currency or id differs: "
					+ "not applied", event.eventId(), event.eventType(), refundId);
			return delivery.ignore(paymentId, refundId.value(), "object does not match the refund");
		}
		GatewayResult outcome = subject.outcome();
		if (outcome == null) {
			return delivery.ignore(paymentId, refundId.value(), "no final outcome");
		}
		if (refund.get().status() != RefundStatus.PENDING) {
			return alreadyFinal(delivery, refund.get(), outcome);
		}
		FinishStep finish = switch (outcome) {
			case GatewayResult.Approved approved -> this.refundService.succeeded(approved);
			case GatewayResult.Declined declined -> this.refundService.declined(declined);
			case GatewayResult.NotAttempted notAttempted ->
				throw new IllegalArgumentException("Not a final outcome: " + notAttempted);
			case GatewayResult.Unknown unknown -> throw new IllegalArgumentException("Not a final outcome: " + unknown);
		};
		Optional<StoredResponse> settled = this.idempotency.completeResource(RefundService.OPERATION,
				OperationContext.scope(refund.get().clientId()), refundId.value(), (id) -> {
					delivery.record(paymentId, id, "APPLIED");
					return finish.finish(id);
				});
		if (settled.isPresent()) {
			log.info("Webhook event {} ({}) settled refund {}", event.eventId(), event.eventType(), refundId);
			return delivery.acknowledge(new ProviderEventEffect.Applied(), (id) -> true);
		}
		Refund current = this.refundService.load(refundId);
		return (current.status() != RefundStatus.PENDING) ? alreadyFinal(delivery, current, outcome)
				: new Action.Release<>(new ProviderEventEffect.Deferred(this.idempotency.retryAfter()));
	}

	private Action<ProviderEventEffect> alreadyFinal(Delivery delivery, Refund refund, GatewayResult outcome) {
		if (outcome instanceof GatewayResult.Declined declined && refund.status() == RefundStatus.SUCCEEDED) {
			return failedAfterSuccess(delivery, refund, declined);
		}
		boolean agrees = (outcome instanceof GatewayResult.Approved) ? refund.status() == RefundStatus.SUCCEEDED
				: refund.status() == RefundStatus.DECLINED;
		if (!agrees) {
			log.warn("Webhook event {} ({}) disagrees with refund {}, which is {}: a final refund never changes",
					delivery.event().eventId(), delivery.event().eventType(), refund.id(), refund.status());
		}
		return delivery.ignore(refund.paymentId().value(), refund.id().value(), "refund already " + refund.status());
	}

	/**
	 * Stripe documents that a refund can fail after it succeeded
	 * (https://docs.stripe.com/refunds#failed-refunds: the customer's bank could not
	 * return the money; Stripe returns it to the account balance). The money is no longer
	 * refunded, so the refund becomes DECLINED with the provider's reason and its amount
	 * is refundable again, with the event's ledger row in the event's completion
	 * transaction: once, whichever of the refund's failure events comes first. The
	 * client's stored 201 stays the answer to its key; the refund itself reads DECLINED
	 * (docs/design.md section 10).
	 */
	private Action<ProviderEventEffect> failedAfterSuccess(Delivery delivery, Refund refund,
			GatewayResult.Declined declined) {
		ProviderEvent event = delivery.event();
		return delivery.acknowledgeAs((id) -> {
			boolean recorded = delivery.record(refund.paymentId().value(), refund.id().value(), "APPLIED");
			boolean reversed = recorded
					&& this.providerRefunds.reverseSucceededRefund(refund.id(), declined.declineCode(), delivery.now());
			if (reversed) {
				// The merchant's event, in the transaction that moved the refund.
				Refund moved = this.refunds.findById(refund.id().value())
					.orElseThrow(() -> new IllegalStateException("Refund " + refund.id() + " vanished"));
				this.outbox.record(NewEvent.of(moved.clientId().value(), "refund", moved.status(), moved.id().value(),
						this.responses.receipt(moved)));
				delivery.afterCommit(() -> {
					log.warn(
							"Webhook event {} ({}): the provider reports refund {} of payment {} failed after "
									+ "it succeeded; it is DECLINED and its amount refundable again",
							event.eventId(), event.eventType(), refund.id(), refund.paymentId());
					this.metrics.refundFailedAfterSuccess();
				});
			}
			return !recorded ? new ProviderEventEffect.Duplicate() : reversed ? new ProviderEventEffect.Applied()
					: new ProviderEventEffect.Ignored("refund already DECLINED");
		});
	}

	/**
	 * Refunds made outside Payonce (docs/design.md section 10): each recorded once by its
	 * provider reference and counted against what remains refundable, in the event's
	 * completion transaction with the event's ledger row.
	 */
	Action<ProviderEventEffect> actOutside(Delivery delivery, ProviderEvent.Subject.OfProviderRefunds subject) {
		ProviderEvent event = delivery.event();
		Optional<PaymentId> found = this.providerRefunds.paymentOf(subject.paymentReference());
		if (found.isEmpty()) {
			// Another integration's charge on the same account.
			return delivery.acknowledge(new ProviderEventEffect.Ignored("names no payment of Payonce's"), (id) -> true);
		}
		PaymentId paymentId = found.get();
		Payment payment = this.paymentService.load(paymentId);
		String currency = payment.amount().currency().getCurrencyCode();
		List<ProviderEvent.ProviderRefund> stated = subject.refunds()
			.stream()
			.filter((refund) -> refund.currency().equalsIgnoreCase(currency)
					&& refund.amount() <= payment.amount().minorUnits())
			.toList();
		if (stated.size() < subject.refunds().size()) {
			log.warn("Webhook event {} ({}) states refunds of payment {} in another currency or above its amount: "
					+ "those are not recorded", event.eventId(), event.eventType(), paymentId);
		}
		return delivery.acknowledgeAs((id) -> {
			long before = this.providerRefunds.onRecord(paymentId).orElse(0L);
			long refundableBefore = payment.amount().minorUnits() - before;
			long change = 0;
			for (ProviderEvent.ProviderRefund refund : stated) {
				change += this.providerRefunds.record(event.provider(), paymentId, refund, delivery.now());
			}
			boolean recorded = delivery.record(paymentId.value(), null, (change != 0) ? "APPLIED" : "IGNORED");
			if (change > refundableBefore && change > 0) {
				log.warn(
						"Webhook event {} ({}): refunds made outside Payonce take {} minor units of payment {}, "
								+ "more than the {} Payonce had left; refunds of it in flight may fail at the provider",
						event.eventId(), event.eventType(), change, paymentId, Math.max(0, refundableBefore));
			}
			Long total = subject.totalRefunded();
			long onRecord = before + change;
			if (total != null && total > onRecord) {
				log.warn(
						"Webhook event {} ({}): the provider has refunded {} minor units of payment {}, {} more "
								+ "than on record here; the refund events of the charge say which refunds",
						event.eventId(), event.eventType(), total, paymentId, total - onRecord);
			}
			if (change != 0) {
				log.info("Webhook event {} ({}) recorded refunds made outside Payonce of payment {}: {} minor units",
						event.eventId(), event.eventType(), paymentId, change);
			}
			return (change != 0) ? new ProviderEventEffect.Applied()
					: recorded ? new ProviderEventEffect.Ignored("no new refund outside Payonce")
							: new ProviderEventEffect.Duplicate();
		});
	}

}
