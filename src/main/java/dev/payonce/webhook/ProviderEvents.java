package dev.payonce.webhook;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Service;

import dev.payonce.idempotency.IdempotentOperation.Action;
import dev.payonce.idempotency.ClaimRequest;
import dev.payonce.idempotency.IdempotencyService.Execution;
import dev.payonce.idempotency.IdempotentOperation.FinishStep;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.IdempotencyScope;
import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.IdempotentOperation;
import dev.payonce.idempotency.RequestFingerprint;
import dev.payonce.idempotency.StoredResponse;
import dev.payonce.payment.Payment;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.PaymentService;
import dev.payonce.payment.PaymentStatus;
import dev.payonce.payment.Payments;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.OperationContext;
import dev.payonce.refund.Refund;
import dev.payonce.refund.RefundId;
import dev.payonce.refund.RefundService;
import dev.payonce.refund.RefundStatus;
import dev.payonce.refund.Refunds;

/**
 * Applies providers' webhook events to payments and refunds: at-least-once delivery in,
 * exactly-once effect (docs/design.md, "Webhooks").
 *
 * <p>
 * Each event that names a Payonce payment or refund runs as the {@value #OPERATION}
 * operation of the idempotency engine, with the event id as the idempotency key in the
 * provider's own scope ({@code webhook:<provider>}, which no client id can spell):
 * <ul>
 * <li>The first delivery claims the event; its act step settles the payment or refund and
 * the engine stores the acknowledgement; every later delivery is a replay of it, and
 * changes nothing.</li>
 * <li>A concurrent delivery of the same event finds the lease held:
 * {@link WebhookEffect.InProgress}, answered so that the provider delivers it again.</li>
 * <li>A delivery cut short by a crash leaves the event's record with a lease that runs
 * out; the provider's redelivery takes it over and runs the act step again, which only
 * settles what is still PENDING.</li>
 * <li>A PENDING payment or refund is settled through the same fenced completion a request
 * and the reconciler use ({@link IdempotencyService#completeResource}): the resource's
 * own idempotency record is taken over (only once its lease has ended), and resource,
 * record and the event's ledger row commit together or not at all. So a webhook, a client
 * retry and the reconciler racing on one payment or refund produce one outcome, and the
 * client's next retry replays it.</li>
 * <li>Nothing final ever changes back: a late or contradicting event is acknowledged,
 * logged and recorded as ignored; except that a SUCCEEDED refund the provider reports
 * failed becomes DECLINED with its amount refundable again, and a DECLINED payment the
 * provider reports succeeded is marked for an operator (docs/design.md section 10, "Money
 * moved outside Payonce").</li>
 * <li>Refunds made outside Payonce are recorded once each by their provider reference and
 * reduce what remains refundable ({@link ProviderRefunds}).</li>
 * <li>An event of the provider account's other mode is recorded as ignored.</li>
 * <li>While another attempt holds the resource's lease, nothing is recorded, the event's
 * lease is released at once and the event is {@link WebhookEffect.Deferred}: the provider
 * delivers it again.</li>
 * </ul>
 * Events that name nothing of Payonce's are acknowledged without a record. The ledger
 * ({@code provider_webhook_events}) keeps, for good, which event settled or was ignored
 * against which payment or refund, so even a delivery after the engine's record expired
 * is a duplicate.
 */
@Service
public class ProviderEvents {

	/** The operation's name, stored with each of its idempotency records. */
	public static final String OPERATION = "webhook_event";

	private static final Logger log = LoggerFactory.getLogger(ProviderEvents.class);

	/** The stored answer to every delivery that is done with. */
	static final StoredResponse ACKNOWLEDGED = new StoredResponse(200,
			Map.of(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE), "{\"received\":true}");

	private final WebhookEvents events;

	private final Payments payments;

	private final Refunds refunds;

	private final PaymentService paymentService;

	private final RefundService refundService;

	private final IdempotencyService idempotency;

	private final WebhookMetrics metrics;

	private final ProviderRefunds providerRefunds;

	private final OperationContext context;

	ProviderEvents(WebhookEvents events, Payments payments, Refunds refunds, PaymentService paymentService,
			RefundService refundService, IdempotencyService idempotency, WebhookMetrics metrics,
			ProviderRefunds providerRefunds, OperationContext context) {
		this.providerRefunds = providerRefunds;
		this.context = context;
		this.events = events;
		this.payments = payments;
		this.refunds = refunds;
		this.paymentService = paymentService;
		this.refundService = refundService;
		this.idempotency = idempotency;
		this.metrics = metrics;
	}

	/**
	 * The engine's scope for one provider's events: a colon is no part of any client id,
	 * so no client's idempotency key can meet an event id.
	 * @param provider the provider's name, for example {@code stripe}
	 * @return {@code webhook:<provider>}
	 */
	public static IdempotencyScope scope(String provider) {
		return new IdempotencyScope("webhook:" + provider);
	}

	/**
	 * Applies one delivery of an event.
	 * @param event the authenticated event
	 * @return what it did; acknowledge {@link WebhookEffect.Applied},
	 * {@link WebhookEffect.Duplicate} and {@link WebhookEffect.Ignored}
	 * @throws IllegalArgumentException if the event id is not a valid idempotency key (1
	 * to 255 visible ASCII characters)
	 * @throws org.springframework.dao.DataAccessException if the database fails; nothing
	 * is then acknowledged and the provider delivers the event again (a lease left held
	 * runs out and the redelivery takes it over)
	 */
	public WebhookEffect apply(WebhookEvent event) {
		WebhookEffect effect = (event.subject() instanceof WebhookEvent.Subject.Unrelated || namesNoPayment(event))
				? new WebhookEffect.Ignored("names nothing of Payonce's") : applyOnce(event);
		this.metrics.webhookEvent(effect);
		return effect;
	}

	/**
	 * Whether an event about a charge's refunds names a charge no payment here has
	 * (another integration's on the same account): acknowledged without a record, like an
	 * object without Payonce's id.
	 */
	private boolean namesNoPayment(WebhookEvent event) {
		return event.subject() instanceof WebhookEvent.Subject.OfProviderRefunds refunds
				&& this.providerRefunds.paymentOf(refunds.paymentReference()).isEmpty();
	}

	private WebhookEffect applyOnce(WebhookEvent event) {
		EventOperation operation = new EventOperation(event);
		ClaimRequest request = new ClaimRequest(scope(event.provider()), new IdempotencyKey(event.eventId()),
				fingerprint(event));
		return switch (this.idempotency.execute(operation, request)) {
			case Execution.Completed<WebhookEffect> completed -> {
				if (completed.replayed()) {
					yield new WebhookEffect.Duplicate();
				}
				operation.onCommit.run();
				yield operation.effect;
			}
			case Execution.InProgress<WebhookEffect> inProgress ->
				new WebhookEffect.InProgress(inProgress.retryAfter());
			case Execution.Released<WebhookEffect> released -> released.reason();
			case Execution.Refused<WebhookEffect> refused -> refused.reason();
			case Execution.KeyReused<WebhookEffect> reused -> {
				// Only another account or a forged event could reuse an event id with
				// other content; the signature rules out the latter.
				log.warn("Webhook event {} ({}) was handled before with another subject; nothing changes",
						event.eventId(), event.eventType());
				yield new WebhookEffect.Duplicate();
			}
		};
	}

	/**
	 * Over what stays the same on every redelivery of an event (not, for example,
	 * Stripe's {@code pending_webhooks}).
	 */
	private static RequestFingerprint fingerprint(WebhookEvent event) {
		String subject = switch (event.subject()) {
			case WebhookEvent.Subject.OfPayment payment -> "payment:" + payment.paymentId();
			case WebhookEvent.Subject.OfRefund refund -> "refund:" + refund.refundId();
			case WebhookEvent.Subject.OfProviderRefunds refunds -> "charge:" + refunds.paymentReference();
			case WebhookEvent.Subject.OtherMode otherMode -> "other-mode";
			case WebhookEvent.Subject.Unrelated unrelated -> "unrelated";
		};
		return RequestFingerprint.of("POST", "/webhooks/" + event.provider(),
				Map.of("type", event.eventType(), "subject", subject));
	}

	/**
	 * The steps for one delivery. The claim step writes nothing of its own: the event is
	 * in hand on every delivery, so a takeover "reloads" it from the delivery.
	 */
	private final class EventOperation implements IdempotentOperation<WebhookEvent, WebhookEffect> {

		private final WebhookEvent event;

		/** What the act step did, for the delivery that completes the record. */
		private WebhookEffect effect = new WebhookEffect.Duplicate();

		/** What to log and count once the completion committed. */
		private Runnable onCommit = () -> {
		};

		EventOperation(WebhookEvent event) {
			this.event = event;
		}

		@Override
		public String name() {
			return OPERATION;
		}

		@Override
		public WebhookEvent create(UUID resourceId) {
			return this.event;
		}

		@Override
		public WebhookEvent load(UUID resourceId) {
			return this.event;
		}

		@Override
		public Action<WebhookEffect> act(WebhookEvent event) {
			return switch (event.subject()) {
				case WebhookEvent.Subject.OfPayment payment -> actOnPayment(event, payment);
				case WebhookEvent.Subject.OfRefund refund -> actOnRefund(event, refund);
				case WebhookEvent.Subject.OfProviderRefunds refunds -> actOnProviderRefunds(event, refunds);
				case WebhookEvent.Subject.OtherMode otherMode -> {
					log.warn("Webhook event {} ({}) is of the provider account's other mode (live or test) than "
							+ "Payonce's key: not applied", event.eventId(), event.eventType());
					yield ignore(event, null, null, "event of the other mode");
				}
				case WebhookEvent.Subject.Unrelated unrelated ->
					acknowledge(new WebhookEffect.Ignored("names nothing of Payonce's"), (id) -> true);
			};
		}

		private Action<WebhookEffect> actOnPayment(WebhookEvent event, WebhookEvent.Subject.OfPayment subject) {
			PaymentId paymentId = subject.paymentId();
			Optional<Payment> payment = ProviderEvents.this.payments.findById(paymentId.value());
			if (payment.isEmpty()) {
				log.warn("Webhook event {} ({}) names payment {}, which does not exist", event.eventId(),
						event.eventType(), paymentId);
				return ignore(event, paymentId.value(), null, "unknown payment");
			}
			if (!subject.object().matches(payment.get().amount(), payment.get().providerReference())) {
				log.warn("Webhook event {} ({}) names payment {} but its object's amount, currency or id differs: "
						+ "not applied", event.eventId(), event.eventType(), paymentId);
				return ignore(event, paymentId.value(), null, "object does not match the payment");
			}
			GatewayResult outcome = subject.outcome();
			if (outcome == null) {
				return ignore(event, paymentId.value(), null, "no final outcome");
			}
			if (payment.get().status() != PaymentStatus.PENDING) {
				return paymentAlreadyFinal(event, payment.get(), outcome);
			}
			Optional<StoredResponse> settled = ProviderEvents.this.idempotency.completeResource(
					PaymentService.OPERATION, OperationContext.scope(payment.get().clientId()), paymentId.value(),
					(id) -> {
						ProviderEvents.this.events.record(event, id, null, "APPLIED", now());
						return ProviderEvents.this.paymentService.finished(outcome).finish(id);
					});
			if (settled.isPresent()) {
				log.info("Webhook event {} ({}) settled payment {}", event.eventId(), event.eventType(), paymentId);
				return acknowledge(new WebhookEffect.Applied(), (id) -> true);
			}
			// Nothing was written: the payment completed meanwhile, or another attempt
			// holds it.
			Payment current = ProviderEvents.this.paymentService.load(paymentId);
			return (current.status() != PaymentStatus.PENDING) ? paymentAlreadyFinal(event, current, outcome)
					: new Action.Release<>(new WebhookEffect.Deferred(ProviderEvents.this.idempotency.retryAfter()));
		}

		private Action<WebhookEffect> paymentAlreadyFinal(WebhookEvent event, Payment payment, GatewayResult outcome) {
			if (outcome instanceof GatewayResult.Approved && payment.status() == PaymentStatus.DECLINED) {
				return succeededAfterDecline(event, payment);
			}
			boolean agrees = (outcome instanceof GatewayResult.Approved) ? payment.status() == PaymentStatus.SUCCEEDED
					: payment.status() == PaymentStatus.DECLINED;
			if (!agrees) {
				log.warn("Webhook event {} ({}) disagrees with payment {}, which is {}: a final payment never changes",
						event.eventId(), event.eventType(), payment.id(), payment.status());
			}
			return ignore(event, payment.id().value(), null, "payment already " + payment.status());
		}

		/**
		 * The provider took the money of a payment Payonce answered declined (Stripe: a
		 * PaymentIntent retried after {@code payment_intent.payment_failed} and then
		 * succeeded, the same one, since the object matched). The client was told
		 * DECLINED and that answer is stored, so the status stays; the payment is marked
		 * for an operator ({@code succeeded_after_decline_at}), counted in
		 * {@code payonce_payments_succeeded_after_decline_total} (an alert fires on it)
		 * and logged at WARN. Policy (docs/design.md section 10): never refunded
		 * automatically; the merchant refunds it in the provider's dashboard (then
		 * recorded as a refund made outside Payonce) or fulfils the order.
		 */
		private Action<WebhookEffect> succeededAfterDecline(WebhookEvent event, Payment payment) {
			return new Action.Finish<>((id) -> {
				boolean recorded = ProviderEvents.this.events.record(event, payment.id().value(), null, "APPLIED",
						now());
				boolean marked = recorded
						&& ProviderEvents.this.providerRefunds.markSucceededAfterDecline(payment.id(), now());
				if (marked) {
					this.onCommit = () -> {
						log.warn(
								"Webhook event {} ({}): the provider charged payment {}, which Payonce answered "
										+ "DECLINED; marked for an operator (succeeded_after_decline_at)",
								event.eventId(), event.eventType(), payment.id());
						ProviderEvents.this.metrics.paymentSucceededAfterDecline();
					};
				}
				this.effect = !recorded ? new WebhookEffect.Duplicate()
						: marked ? new WebhookEffect.Applied() : new WebhookEffect.Ignored("already marked");
				return ACKNOWLEDGED;
			});
		}

		private Action<WebhookEffect> actOnRefund(WebhookEvent event, WebhookEvent.Subject.OfRefund subject) {
			RefundId refundId = subject.refundId();
			Optional<Refund> refund = ProviderEvents.this.refunds.findById(refundId.value());
			if (refund.isEmpty()) {
				log.warn("Webhook event {} ({}) names refund {}, which does not exist", event.eventId(),
						event.eventType(), refundId);
				return ignore(event, null, refundId.value(), "unknown refund");
			}
			UUID paymentId = refund.get().paymentId().value();
			if (!subject.object().matches(refund.get().amount(), refund.get().providerReference())) {
				log.warn("Webhook event {} ({}) names refund {} but its object's amount, currency or id differs: "
						+ "not applied", event.eventId(), event.eventType(), refundId);
				return ignore(event, paymentId, refundId.value(), "object does not match the refund");
			}
			GatewayResult outcome = subject.outcome();
			if (outcome == null) {
				return ignore(event, paymentId, refundId.value(), "no final outcome");
			}
			if (refund.get().status() != RefundStatus.PENDING) {
				return refundAlreadyFinal(event, refund.get(), outcome);
			}
			FinishStep finish = switch (outcome) {
				case GatewayResult.Approved approved -> ProviderEvents.this.refundService.succeeded(approved);
				case GatewayResult.Declined declined -> ProviderEvents.this.refundService.declined(declined);
				case GatewayResult.NotAttempted notAttempted ->
					throw new IllegalArgumentException("Not a final outcome: " + notAttempted);
				case GatewayResult.Unknown unknown ->
					throw new IllegalArgumentException("Not a final outcome: " + unknown);
			};
			Optional<StoredResponse> settled = ProviderEvents.this.idempotency.completeResource(RefundService.OPERATION,
					OperationContext.scope(refund.get().clientId()), refundId.value(), (id) -> {
						ProviderEvents.this.events.record(event, paymentId, id, "APPLIED", now());
						return finish.finish(id);
					});
			if (settled.isPresent()) {
				log.info("Webhook event {} ({}) settled refund {}", event.eventId(), event.eventType(), refundId);
				return acknowledge(new WebhookEffect.Applied(), (id) -> true);
			}
			Refund current = ProviderEvents.this.refundService.load(refundId);
			return (current.status() != RefundStatus.PENDING) ? refundAlreadyFinal(event, current, outcome)
					: new Action.Release<>(new WebhookEffect.Deferred(ProviderEvents.this.idempotency.retryAfter()));
		}

		private Action<WebhookEffect> refundAlreadyFinal(WebhookEvent event, Refund refund, GatewayResult outcome) {
			if (outcome instanceof GatewayResult.Declined declined && refund.status() == RefundStatus.SUCCEEDED) {
				return refundFailedAfterSuccess(event, refund, declined);
			}
			boolean agrees = (outcome instanceof GatewayResult.Approved) ? refund.status() == RefundStatus.SUCCEEDED
					: refund.status() == RefundStatus.DECLINED;
			if (!agrees) {
				log.warn("Webhook event {} ({}) disagrees with refund {}, which is {}: a final refund never changes",
						event.eventId(), event.eventType(), refund.id(), refund.status());
			}
			return ignore(event, refund.paymentId().value(), refund.id().value(), "refund already " + refund.status());
		}

		/**
		 * Stripe documents that a refund can fail after it succeeded
		 * (https://docs.stripe.com/refunds#failed-refunds: the customer's bank could not
		 * return the money; Stripe returns it to the account balance). The money is no
		 * longer refunded, so the refund becomes DECLINED with the provider's reason and
		 * its amount is refundable again, with the event's ledger row in the event's
		 * completion transaction: once, whichever of the refund's failure events comes
		 * first. The client's stored 201 stays the answer to its key; the refund itself
		 * reads DECLINED (docs/design.md section 10).
		 */
		private Action<WebhookEffect> refundFailedAfterSuccess(WebhookEvent event, Refund refund,
				GatewayResult.Declined declined) {
			return new Action.Finish<>((id) -> {
				boolean recorded = ProviderEvents.this.events.record(event, refund.paymentId().value(),
						refund.id().value(), "APPLIED", now());
				boolean reversed = recorded && ProviderEvents.this.providerRefunds.reverseSucceededRefund(refund.id(),
						declined.declineCode(), now());
				if (reversed) {
					this.onCommit = () -> {
						log.warn(
								"Webhook event {} ({}): the provider reports refund {} of payment {} failed after "
										+ "it succeeded; it is DECLINED and its amount refundable again",
								event.eventId(), event.eventType(), refund.id(), refund.paymentId());
						ProviderEvents.this.metrics.refundFailedAfterSuccess();
					};
				}
				this.effect = !recorded ? new WebhookEffect.Duplicate()
						: reversed ? new WebhookEffect.Applied() : new WebhookEffect.Ignored("refund already DECLINED");
				return ACKNOWLEDGED;
			});
		}

		/**
		 * Refunds made outside Payonce (docs/design.md section 10): each recorded once by
		 * its provider reference and counted against what remains refundable, in the
		 * event's completion transaction with the event's ledger row.
		 */
		private Action<WebhookEffect> actOnProviderRefunds(WebhookEvent event,
				WebhookEvent.Subject.OfProviderRefunds subject) {
			Optional<PaymentId> found = ProviderEvents.this.providerRefunds.paymentOf(subject.paymentReference());
			if (found.isEmpty()) {
				// Another integration's charge on the same account.
				return acknowledge(new WebhookEffect.Ignored("names no payment of Payonce's"), (id) -> true);
			}
			PaymentId paymentId = found.get();
			Payment payment = ProviderEvents.this.paymentService.load(paymentId);
			String currency = payment.amount().currency().getCurrencyCode();
			List<WebhookEvent.ProviderRefund> refunds = subject.refunds()
				.stream()
				.filter((refund) -> refund.currency().equalsIgnoreCase(currency)
						&& refund.amount() <= payment.amount().minorUnits())
				.toList();
			if (refunds.size() < subject.refunds().size()) {
				log.warn("Webhook event {} ({}) states refunds of payment {} in another currency or above its amount: "
						+ "those are not recorded", event.eventId(), event.eventType(), paymentId);
			}
			return new Action.Finish<>((id) -> {
				long before = ProviderEvents.this.providerRefunds.onRecord(paymentId).orElse(0L);
				long refundableBefore = payment.amount().minorUnits() - before;
				long change = 0;
				for (WebhookEvent.ProviderRefund refund : refunds) {
					change += ProviderEvents.this.providerRefunds.record(event.provider(), paymentId, refund, now());
				}
				boolean recorded = ProviderEvents.this.events.record(event, paymentId.value(), null,
						(change != 0) ? "APPLIED" : "IGNORED", now());
				if (change > refundableBefore && change > 0) {
					log.warn("Webhook event {} ({}): refunds made outside Payonce take {} minor units of payment {}, "
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
					log.info(
							"Webhook event {} ({}) recorded refunds made outside Payonce of payment {}: {} minor units",
							event.eventId(), event.eventType(), paymentId, change);
				}
				this.effect = (change != 0) ? new WebhookEffect.Applied() : recorded
						? new WebhookEffect.Ignored("no new refund outside Payonce") : new WebhookEffect.Duplicate();
				return ACKNOWLEDGED;
			});
		}

		/**
		 * Acknowledged, and recorded in the ledger as ignored within the engine's
		 * completion transaction; an event already in the ledger (its engine record
		 * expired before this redelivery) is a duplicate.
		 */
		private Action<WebhookEffect> ignore(WebhookEvent event, @Nullable UUID paymentId, @Nullable UUID refundId,
				String reason) {
			return acknowledge(new WebhookEffect.Ignored(reason),
					(id) -> ProviderEvents.this.events.record(event, paymentId, refundId, "IGNORED", now()));
		}

		private Action<WebhookEffect> acknowledge(WebhookEffect effect, LedgerWrite ledger) {
			return new Action.Finish<>((id) -> {
				this.effect = ledger.write(id) ? effect : new WebhookEffect.Duplicate();
				return ACKNOWLEDGED;
			});
		}

	}

	/** A ledger write in the completion transaction; false if the event was there. */
	@FunctionalInterface
	private interface LedgerWrite {

		boolean write(UUID resourceId);

	}

	private Instant now() {
		return this.context.now();
	}

}
