package dev.payonce.webhook;

import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

import dev.payonce.idempotency.IdempotentOperation.Action;
import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.StoredResponse;
import dev.payonce.payment.Payment;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.PaymentService;
import dev.payonce.payment.PaymentStatus;
import dev.payonce.payment.Payments;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.OperationContext;
import dev.payonce.provider.ProviderEvent;
import dev.payonce.provider.ProviderEventEffect;

/**
 * The act step of an event that names a Payonce payment ({@link ProviderEvents}): a
 * PENDING payment is settled through the fenced completion a request and the reconciler
 * use; a final one never changes, except that a DECLINED payment the provider reports
 * succeeded is marked for an operator (docs/design.md section 10).
 */
@Component
class PaymentEvents {

	private static final Logger log = LoggerFactory.getLogger(PaymentEvents.class);

	private final Payments payments;

	private final PaymentService paymentService;

	private final IdempotencyService idempotency;

	private final ProviderRefunds providerRefunds;

	private final WebhookMetrics metrics;

	PaymentEvents(Payments payments, PaymentService paymentService, IdempotencyService idempotency,
			ProviderRefunds providerRefunds, WebhookMetrics metrics) {
		this.payments = payments;
		this.paymentService = paymentService;
		this.idempotency = idempotency;
		this.providerRefunds = providerRefunds;
		this.metrics = metrics;
	}

	Action<ProviderEventEffect> act(Delivery delivery, ProviderEvent.Subject.OfPayment subject) {
		ProviderEvent event = delivery.event();
		PaymentId paymentId = new PaymentId(subject.paymentId());
		Optional<Payment> payment = this.payments.findById(paymentId.value());
		if (payment.isEmpty()) {
			log.warn("Webhook event {} ({}) names payment {}, which does not exist", event.eventId(), event.eventType(),
					paymentId);
			return delivery.ignore(paymentId.value(), null, "unknown payment");
		}
		if (!subject.object().matches(payment.get().amount(), payment.get().providerReference())) {
			log.warn("Webhook event {} ({}) names payment {} but its object's amount, currency or id differs: "
					+ "not applied", event.eventId(), event.eventType(), paymentId);
			return delivery.ignore(paymentId.value(), null, "object does not match the payment");
		}
		GatewayResult outcome = subject.outcome();
		if (outcome == null) {
			return delivery.ignore(paymentId.value(), null, "no final outcome");
		}
		if (payment.get().status() != PaymentStatus.PENDING) {
			return alreadyFinal(delivery, payment.get(), outcome);
		}
		Optional<StoredResponse> settled = this.idempotency.completeResource(PaymentService.OPERATION,
				OperationContext.scope(payment.get().clientId()), paymentId.value(), (id) -> {
					delivery.record(id, null, "APPLIED");
					return this.paymentService.finished(outcome).finish(id);
				});
		if (settled.isPresent()) {
			log.info("Webhook event {} ({}) settled payment {}", event.eventId(), event.eventType(), paymentId);
			return delivery.acknowledge(new ProviderEventEffect.Applied(), (id) -> true);
		}
		// Nothing was written: the payment completed meanwhile, or another attempt
		// holds it.
		Payment current = this.paymentService.load(paymentId);
		return (current.status() != PaymentStatus.PENDING) ? alreadyFinal(delivery, current, outcome)
				: new Action.Release<>(new ProviderEventEffect.Deferred(this.idempotency.retryAfter()));
	}

	private Action<ProviderEventEffect> alreadyFinal(Delivery delivery, Payment payment, GatewayResult outcome) {
		if (outcome instanceof GatewayResult.Approved && payment.status() == PaymentStatus.DECLINED) {
			return succeededAfterDecline(delivery, payment);
		}
		boolean agrees = (outcome instanceof GatewayResult.Approved)
				? payment.status() == PaymentStatus.SUCCEEDED || payment.status() == PaymentStatus.AUTHORIZED
				: payment.status() == PaymentStatus.DECLINED;
		if (!agrees) {
			log.warn("Webhook event {} ({}) disagrees with payment {}, which is {}: a final payment never changes",
					delivery.event().eventId(), delivery.event().eventType(), payment.id(), payment.status());
		}
		return delivery.ignore(payment.id().value(), null, "payment already " + payment.status());
	}

	/**
	 * The provider took the money of a payment Payonce answered declined (Stripe: a
	 * PaymentIntent retried after {@code payment_intent.payment_failed} and then
	 * succeeded, the same one, since the object matched). The client was told DECLINED
	 * and that answer is stored, so the status stays; the payment is marked for an
	 * operator ({@code succeeded_after_decline_at}), counted in
	 * {@code payonce_payments_succeeded_after_decline_total} (an alert fires on it) and
	 * logged at WARN. Policy (docs/design.md section 10): never refunded automatically;
	 * the merchant refunds it in the provider's dashboard (then recorded as a refund made
	 * outside Payonce) or fulfils the order.
	 */
	private Action<ProviderEventEffect> succeededAfterDecline(Delivery delivery, Payment payment) {
		ProviderEvent event = delivery.event();
		return delivery.acknowledgeAs((id) -> {
			boolean recorded = delivery.record(payment.id().value(), null, "APPLIED");
			boolean marked = recorded && this.providerRefunds.markSucceededAfterDecline(payment.id(), delivery.now());
			if (marked) {
				delivery.afterCommit(() -> {
					log.warn(
							"Webhook event {} ({}): the provider charged payment {}, which Payonce answered "
									+ "DECLINED; marked for an operator (succeeded_after_decline_at)",
							event.eventId(), event.eventType(), payment.id());
					this.metrics.paymentSucceededAfterDecline();
				});
			}
			return !recorded ? new ProviderEventEffect.Duplicate()
					: marked ? new ProviderEventEffect.Applied() : new ProviderEventEffect.Ignored("already marked");
		});
	}

}
