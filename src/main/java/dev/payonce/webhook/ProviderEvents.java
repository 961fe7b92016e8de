package dev.payonce.webhook;

import java.util.Map;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Service;

import dev.payonce.idempotency.IdempotentOperation.Action;
import dev.payonce.idempotency.ClaimRequest;
import dev.payonce.idempotency.IdempotencyService.Execution;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.IdempotencyScope;
import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.IdempotentOperation;
import dev.payonce.idempotency.RequestFingerprint;
import dev.payonce.idempotency.StoredResponse;
import dev.payonce.provider.OperationContext;
import dev.payonce.provider.ProviderEvent;
import dev.payonce.provider.ProviderEventEffect;
import dev.payonce.provider.ProviderEventHandler;

/**
 * Applies providers' webhook events to payments, refunds, captures and voids:
 * at-least-once delivery in, exactly-once effect (docs/design.md, "Webhooks"). Adapters
 * hand events over through {@link ProviderEventHandler}, with plain ids; the act steps
 * find the payment ({@link PaymentEvents}), refund ({@link RefundEvents}) or the pending
 * capture or void of a manual payment's authorization ({@link HoldEvents}) they name.
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
 * {@link ProviderEventEffect.InProgress}, answered so that the provider delivers it
 * again.</li>
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
 * lease is released at once and the event is {@link ProviderEventEffect.Deferred}: the
 * provider delivers it again.</li>
 * </ul>
 * Events that name nothing of Payonce's are acknowledged without a record. The ledger
 * ({@code provider_webhook_events}) keeps, for good, which event settled or was ignored
 * against which payment or refund, so even a delivery after the engine's record expired
 * is a duplicate.
 */
@Service
public class ProviderEvents implements ProviderEventHandler {

	/** The operation's name, stored with each of its idempotency records. */
	public static final String OPERATION = "webhook_event";

	private static final Logger log = LoggerFactory.getLogger(ProviderEvents.class);

	/** The stored answer to every delivery that is done with. */
	static final StoredResponse ACKNOWLEDGED = new StoredResponse(200,
			Map.of(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE), "{\"received\":true}");

	private final WebhookEvents events;

	private final PaymentEvents paymentEvents;

	private final RefundEvents refundEvents;

	private final HoldEvents holdEvents;

	private final ProviderRefunds providerRefunds;

	private final IdempotencyService idempotency;

	private final WebhookMetrics metrics;

	private final OperationContext context;

	ProviderEvents(WebhookEvents events, PaymentEvents paymentEvents, RefundEvents refundEvents, HoldEvents holdEvents,
			ProviderRefunds providerRefunds, IdempotencyService idempotency, WebhookMetrics metrics,
			OperationContext context) {
		this.events = events;
		this.paymentEvents = paymentEvents;
		this.refundEvents = refundEvents;
		this.holdEvents = holdEvents;
		this.providerRefunds = providerRefunds;
		this.idempotency = idempotency;
		this.metrics = metrics;
		this.context = context;
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
	 * @return what it did; acknowledge {@link ProviderEventEffect.Applied},
	 * {@link ProviderEventEffect.Duplicate} and {@link ProviderEventEffect.Ignored}
	 * @throws IllegalArgumentException if the event id is not a valid idempotency key (1
	 * to 255 visible ASCII characters)
	 * @throws org.springframework.dao.DataAccessException if the database fails; nothing
	 * is then acknowledged and the provider delivers the event again (a lease left held
	 * runs out and the redelivery takes it over)
	 */
	@Override
	public ProviderEventEffect apply(ProviderEvent event) {
		ProviderEventEffect effect = (event.subject() instanceof ProviderEvent.Subject.Unrelated
				|| namesNoPayment(event)) ? new ProviderEventEffect.Ignored("names nothing of Payonce's")
						: applyOnce(event);
		this.metrics.webhookEvent(effect);
		return effect;
	}

	/**
	 * Whether an event about a charge's refunds names a charge no payment here has
	 * (another integration's on the same account): acknowledged without a record, like an
	 * object without Payonce's id.
	 */
	private boolean namesNoPayment(ProviderEvent event) {
		return switch (event.subject()) {
			case ProviderEvent.Subject.OfProviderRefunds refunds ->
				this.providerRefunds.paymentOf(refunds.paymentReference()).isEmpty();
			case ProviderEvent.Subject.OfHold hold -> this.holdEvents.paymentOf(hold).isEmpty();
			default -> false;
		};
	}

	private ProviderEventEffect applyOnce(ProviderEvent event) {
		EventOperation operation = new EventOperation(new Delivery(event, this.events, this.context));
		ClaimRequest request = new ClaimRequest(scope(event.provider()), new IdempotencyKey(event.eventId()),
				fingerprint(event));
		return switch (this.idempotency.execute(operation, request)) {
			case Execution.Completed<ProviderEventEffect> completed -> {
				if (completed.replayed()) {
					yield new ProviderEventEffect.Duplicate();
				}
				operation.delivery.committed();
				yield operation.delivery.effect();
			}
			case Execution.InProgress<ProviderEventEffect> inProgress ->
				new ProviderEventEffect.InProgress(inProgress.retryAfter());
			case Execution.Released<ProviderEventEffect> released -> released.reason();
			case Execution.Refused<ProviderEventEffect> refused -> refused.reason();
			case Execution.KeyReused<ProviderEventEffect> reused -> {
				// Only another account or a forged event could reuse an event id with
				// other content; the signature rules out the latter.
				log.warn("Webhook event {} ({}) was handled before with another subject; nothing changes",
						event.eventId(), event.eventType());
				yield new ProviderEventEffect.Duplicate();
			}
		};
	}

	/**
	 * Over what stays the same on every redelivery of an event (not, for example,
	 * Stripe's {@code pending_webhooks}).
	 */
	private static RequestFingerprint fingerprint(ProviderEvent event) {
		String subject = switch (event.subject()) {
			case ProviderEvent.Subject.OfPayment payment -> "payment:" + payment.paymentId();
			case ProviderEvent.Subject.OfRefund refund -> "refund:" + refund.refundId();
			case ProviderEvent.Subject.OfProviderRefunds refunds -> "charge:" + refunds.paymentReference();
			case ProviderEvent.Subject.OfHold hold -> "hold:" + hold.paymentReference();
			case ProviderEvent.Subject.OtherMode otherMode -> "other-mode";
			case ProviderEvent.Subject.Unrelated unrelated -> "unrelated";
		};
		return RequestFingerprint.of("POST", "/webhooks/" + event.provider(),
				Map.of("type", event.eventType(), "subject", subject));
	}

	/**
	 * The steps for one delivery. The claim step writes nothing of its own: the event is
	 * in hand on every delivery, so a takeover "reloads" it from the delivery.
	 */
	private final class EventOperation implements IdempotentOperation<ProviderEvent, ProviderEventEffect> {

		private final Delivery delivery;

		EventOperation(Delivery delivery) {
			this.delivery = delivery;
		}

		@Override
		public String name() {
			return OPERATION;
		}

		@Override
		public ProviderEvent create(UUID resourceId) {
			return this.delivery.event();
		}

		@Override
		public ProviderEvent load(UUID resourceId) {
			return this.delivery.event();
		}

		@Override
		public Action<ProviderEventEffect> act(ProviderEvent event) {
			return switch (event.subject()) {
				case ProviderEvent.Subject.OfPayment payment ->
					ProviderEvents.this.paymentEvents.act(this.delivery, payment);
				case ProviderEvent.Subject.OfRefund refund ->
					ProviderEvents.this.refundEvents.act(this.delivery, refund);
				case ProviderEvent.Subject.OfProviderRefunds refunds ->
					ProviderEvents.this.refundEvents.actOutside(this.delivery, refunds);
				case ProviderEvent.Subject.OfHold hold -> ProviderEvents.this.holdEvents.act(this.delivery, hold);
				case ProviderEvent.Subject.OtherMode otherMode -> {
					log.warn("Webhook event {} ({}) is of the provider account's other mode (live or test) than "
							+ "Payonce's key: not applied", event.eventId(), event.eventType());
					yield this.delivery.ignore(null, null, "event of the other mode");
				}
				case ProviderEvent.Subject.Unrelated unrelated -> this.delivery
					.acknowledge(new ProviderEventEffect.Ignored("names nothing of Payonce's"), (id) -> true);
			};
		}

	}

}
