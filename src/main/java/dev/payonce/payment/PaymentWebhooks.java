package dev.payonce.payment;

import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Service;

import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.StoredResponse;

/**
 * Applies providers' webhook events to payments: at-least-once delivery in, exactly-once
 * effect.
 *
 * <p>
 * Guarantees:
 * <ul>
 * <li>Each event is applied at most once, by (provider, event id): the event row is
 * written in the same transaction as its effect, and a delivery of a recorded event is a
 * {@link WebhookEffect.Duplicate} that changes nothing.</li>
 * <li>A PENDING payment is settled through the same fenced completion a request uses
 * ({@link IdempotencyService#completeResource}): the payment operation's idempotency
 * record is taken over (only once its lease has ended) and payment, record and event row
 * commit together or not at all. So a webhook, a client retry and the reconciler racing
 * on one payment produce one outcome, and the client's next retry replays it.</li>
 * <li>A payment that is already final never changes (an event that arrives late, or
 * contradicts the recorded outcome, is ignored and logged).</li>
 * <li>While another attempt holds the payment's lease, nothing is recorded and the event
 * is {@link WebhookEffect.Deferred}: the provider delivers it again.</li>
 * </ul>
 * The dedupe by event id is its own table and primary key, written in the engine's
 * completion transaction; events are not yet an operation of the engine with records of
 * their own.
 */
@Service
public class PaymentWebhooks {

	private static final Logger log = LoggerFactory.getLogger(PaymentWebhooks.class);

	private final WebhookEvents events;

	private final Payments payments;

	private final PaymentService paymentService;

	private final IdempotencyService idempotency;

	private final PaymentMetrics metrics;

	PaymentWebhooks(WebhookEvents events, Payments payments, PaymentService paymentService,
			IdempotencyService idempotency, PaymentMetrics metrics) {
		this.events = events;
		this.payments = payments;
		this.paymentService = paymentService;
		this.idempotency = idempotency;
		this.metrics = metrics;
	}

	/**
	 * Applies one delivery of an event.
	 * @param event the authenticated event
	 * @return what it did; acknowledge every effect but {@link WebhookEffect.Deferred}
	 * @throws org.springframework.dao.DataAccessException if the database fails; nothing
	 * is then recorded and the provider delivers the event again
	 */
	public WebhookEffect apply(WebhookEvent event) {
		WebhookEffect effect = applyOnce(event);
		this.metrics.webhookEvent(effect);
		return effect;
	}

	private WebhookEffect applyOnce(WebhookEvent event) {
		if (this.events.exists(event.provider(), event.eventId())) {
			return new WebhookEffect.Duplicate();
		}
		PaymentId paymentId = event.paymentId();
		GatewayResult outcome = event.outcome();
		if (paymentId == null
				|| !(outcome instanceof GatewayResult.Approved || outcome instanceof GatewayResult.Declined)) {
			return new WebhookEffect.Ignored("names no payment or no final outcome");
		}
		Optional<Payment> payment = this.payments.findById(paymentId.value());
		if (payment.isEmpty()) {
			log.warn("Webhook event {} ({}) names payment {}, which does not exist", event.eventId(), event.eventType(),
					paymentId);
			return ignore(event, paymentId, "unknown payment");
		}
		if (payment.get().status() != PaymentStatus.PENDING) {
			return alreadyFinal(event, payment.get(), outcome);
		}
		Optional<StoredResponse> settled = this.idempotency.completeResource(PaymentService.OPERATION,
				PaymentService.scope(payment.get().clientId()), paymentId.value(), (id) -> {
					this.events.record(event, id, "APPLIED", this.paymentService.now());
					return this.paymentService.finished(outcome).finish(id);
				});
		if (settled.isPresent()) {
			log.info("Webhook event {} ({}) settled payment {}", event.eventId(), event.eventType(), paymentId);
			return new WebhookEffect.Applied();
		}
		// Nothing was written: the payment completed meanwhile, or another attempt holds
		// it.
		Payment current = this.paymentService.load(paymentId);
		return (current.status() != PaymentStatus.PENDING) ? alreadyFinal(event, current, outcome)
				: new WebhookEffect.Deferred(this.idempotency.retryAfter());
	}

	private WebhookEffect alreadyFinal(WebhookEvent event, Payment payment, GatewayResult outcome) {
		boolean agrees = (outcome instanceof GatewayResult.Approved) ? payment.status() == PaymentStatus.SUCCEEDED
				: payment.status() == PaymentStatus.DECLINED;
		if (!agrees) {
			log.warn("Webhook event {} ({}) disagrees with payment {}, which is {}: a final payment never changes",
					event.eventId(), event.eventType(), payment.id(), payment.status());
		}
		return ignore(event, payment.id(), "payment already " + payment.status());
	}

	private WebhookEffect ignore(WebhookEvent event, PaymentId paymentId, String reason) {
		if (!this.events.record(event, paymentId.value(), "IGNORED", this.paymentService.now())) {
			return new WebhookEffect.Duplicate();
		}
		return new WebhookEffect.Ignored(reason);
	}

}
