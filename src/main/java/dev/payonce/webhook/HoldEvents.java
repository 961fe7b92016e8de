package dev.payonce.webhook;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

import dev.payonce.capture.Capture;
import dev.payonce.capture.CaptureService;
import dev.payonce.capture.CaptureStatus;
import dev.payonce.capture.Captures;
import dev.payonce.capture.PaymentVoid;
import dev.payonce.capture.PaymentVoids;
import dev.payonce.capture.VoidService;
import dev.payonce.capture.VoidStatus;
import dev.payonce.client.ClientId;
import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.IdempotentOperation.Action;
import dev.payonce.idempotency.IdempotentOperation.FinishStep;
import dev.payonce.idempotency.StoredResponse;
import dev.payonce.payment.Payment;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.PaymentStatus;
import dev.payonce.payment.Payments;
import dev.payonce.provider.CaptureMethod;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.OperationContext;
import dev.payonce.provider.ProviderEvent;
import dev.payonce.provider.ProviderEvent.Hold;
import dev.payonce.provider.ProviderEventEffect;

/**
 * The act step of an event about a manual payment's authorization
 * ({@link ProviderEvents}, docs/design.md section 15): it settles the payment's pending
 * void or pending capture through the same fenced completion a request and the reconciler
 * use, or, while the payment itself is PENDING, settles the payment as
 * {@link PaymentEvents} does.
 *
 * <ul>
 * <li>A pending void: the authorization released is the void done; captured for good, it
 * can no longer be voided (declined, the payment held again); still held, nothing
 * yet.</li>
 * <li>A pending capture: approved once what the provider's captures took in all covers
 * what the payment's earlier captures took plus this capture; otherwise declined if the
 * authorization ended (released, or captured for good without it); still held, nothing
 * yet. The judgement needs the capture to be the payment's only one in flight, which is
 * how a provider that sends these events takes captures
 * ({@link dev.payonce.provider.CaptureSequence}); with several in flight the event is
 * left to the reconciler.</li>
 * </ul>
 * Events only move what is PENDING; an object whose amount, currency or id differs from
 * the payment is not applied.
 */
@Component
class HoldEvents {

	/**
	 * The decline code of a capture or void whose authorization the provider released.
	 */
	static final String RELEASED = "authorization_released";

	/**
	 * The decline code of a capture or void whose authorization was captured for good.
	 */
	static final String CAPTURED = "authorization_captured";

	private static final Logger log = LoggerFactory.getLogger(HoldEvents.class);

	private final Payments payments;

	private final PaymentEvents paymentEvents;

	private final ProviderRefunds providerRefunds;

	private final Captures captures;

	private final PaymentVoids voids;

	private final CaptureService captureService;

	private final VoidService voidService;

	private final IdempotencyService idempotency;

	HoldEvents(Payments payments, PaymentEvents paymentEvents, ProviderRefunds providerRefunds, Captures captures,
			PaymentVoids voids, CaptureService captureService, VoidService voidService,
			IdempotencyService idempotency) {
		this.payments = payments;
		this.paymentEvents = paymentEvents;
		this.providerRefunds = providerRefunds;
		this.captures = captures;
		this.voids = voids;
		this.captureService = captureService;
		this.voidService = voidService;
		this.idempotency = idempotency;
	}

	/**
	 * The payment an event about an authorization names: by Payonce's id where its object
	 * carries one, else by the provider's id of the authorized charge.
	 * @param subject the event's subject
	 * @return the payment's id, or empty if it names none here
	 */
	Optional<PaymentId> paymentOf(ProviderEvent.Subject.OfHold subject) {
		UUID named = subject.paymentId();
		return (named != null) ? Optional.of(new PaymentId(named))
				: this.providerRefunds.paymentOf(subject.paymentReference());
	}

	Action<ProviderEventEffect> act(Delivery delivery, ProviderEvent.Subject.OfHold subject) {
		ProviderEvent event = delivery.event();
		Optional<PaymentId> named = paymentOf(subject);
		Optional<Payment> found = named.flatMap((id) -> this.payments.findById(id.value()));
		if (found.isEmpty()) {
			log.warn("Webhook event {} ({}) names a payment that does not exist", event.eventId(), event.eventType());
			return delivery.ignore(named.map(PaymentId::value).orElse(null), null, "unknown payment");
		}
		Payment payment = found.get();
		UUID paymentId = payment.id().value();
		if (payment.status() == PaymentStatus.PENDING) {
			return this.paymentEvents.act(delivery,
					new ProviderEvent.Subject.OfPayment(paymentId, subject.outcome(), subject.object()));
		}
		if (payment.captureMethod() != CaptureMethod.MANUAL
				|| !subject.object().matches(payment.amount(), payment.providerReference())) {
			log.warn("Webhook event {} ({}) names payment {} but its object's amount, currency or id differs: "
					+ "not applied", event.eventId(), event.eventType(), payment.id());
			return delivery.ignore(paymentId, null, "object does not match the payment");
		}
		List<PaymentVoid> voiding = this.voids.findByPaymentIdAndStatus(paymentId, VoidStatus.PENDING);
		if (!voiding.isEmpty()) {
			return settleVoid(delivery, subject, voiding.get(0));
		}
		List<Capture> capturing = this.captures.findByPaymentIdAndStatusOrderByCreatedAtAsc(paymentId,
				CaptureStatus.PENDING);
		if (capturing.size() == 1) {
			return settleCapture(delivery, subject, payment, capturing.get(0));
		}
		if (capturing.size() > 1) {
			log.warn("Webhook event {} ({}): payment {} has {} captures in flight; left to reconciliation",
					event.eventId(), event.eventType(), payment.id(), capturing.size());
		}
		return delivery.ignore(paymentId, null, "no pending capture or void");
	}

	private Action<ProviderEventEffect> settleVoid(Delivery delivery, ProviderEvent.Subject.OfHold subject,
			PaymentVoid pending) {
		GatewayResult outcome = switch (subject.hold()) {
			case RELEASED -> new GatewayResult.Approved(subject.paymentReference());
			case CAPTURED -> new GatewayResult.Declined(subject.paymentReference(), CAPTURED);
			case HELD -> null;
		};
		UUID paymentId = pending.paymentId().value();
		if (outcome == null) {
			return delivery.ignore(paymentId, null, "no final outcome of the void");
		}
		return settle(delivery, VoidService.OPERATION, pending.clientId(), pending.resourceId(), paymentId,
				this.voidService.finished(outcome),
				() -> this.voids.findById(pending.resourceId()).map(PaymentVoid::pending).orElse(false));
	}

	private Action<ProviderEventEffect> settleCapture(Delivery delivery, ProviderEvent.Subject.OfHold subject,
			Payment payment, Capture pending) {
		GatewayResult outcome = null;
		if (subject.captured() >= payment.capturedAmount() + pending.amount().minorUnits()) {
			String reference = subject.captureReference();
			outcome = new GatewayResult.Approved((reference != null) ? reference : subject.paymentReference());
		}
		else if (subject.hold() != Hold.HELD) {
			outcome = new GatewayResult.Declined(subject.paymentReference(),
					(subject.hold() == Hold.RELEASED) ? RELEASED : CAPTURED);
		}
		UUID paymentId = payment.id().value();
		if (outcome == null) {
			return delivery.ignore(paymentId, null, "no final outcome of the capture");
		}
		return settle(delivery, CaptureService.OPERATION, pending.clientId(), pending.resourceId(), paymentId,
				this.captureService.finished(outcome),
				() -> this.captures.findById(pending.resourceId()).map(Capture::pending).orElse(false));
	}

	/**
	 * The resource's fenced completion with the event's ledger row, in one transaction;
	 * deferred while another attempt holds it, ignored once it is final.
	 */
	private Action<ProviderEventEffect> settle(Delivery delivery, String operation, ClientId clientId, UUID resourceId,
			UUID paymentId, FinishStep finish, java.util.function.BooleanSupplier stillPending) {
		ProviderEvent event = delivery.event();
		Optional<StoredResponse> settled = this.idempotency.completeResource(operation,
				OperationContext.scope(clientId), resourceId, (id) -> {
					delivery.record(paymentId, null, "APPLIED");
					return finish.finish(id);
				});
		if (settled.isPresent()) {
			log.info("Webhook event {} ({}) settled {} {} of payment {}", event.eventId(), event.eventType(), operation,
					resourceId, paymentId);
			return delivery.acknowledge(new ProviderEventEffect.Applied(), (id) -> true);
		}
		return stillPending.getAsBoolean()
				? new Action.Release<>(new ProviderEventEffect.Deferred(this.idempotency.retryAfter()))
				: delivery.ignore(paymentId, null, operation + " already final");
	}

}
