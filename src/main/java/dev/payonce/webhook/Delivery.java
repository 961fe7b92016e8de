package dev.payonce.webhook;

import java.time.Instant;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import dev.payonce.idempotency.IdempotentOperation.Action;
import dev.payonce.provider.OperationContext;
import dev.payonce.provider.ProviderEvent;
import dev.payonce.provider.ProviderEventEffect;

/**
 * One delivery of a provider's event inside the engine's act step: the event, what the
 * act step did (for the delivery that completes the event's record), and what to log and
 * count once that completion committed. Its finish steps write the event's ledger row in
 * the engine's completion transaction and store {@link ProviderEvents#ACKNOWLEDGED}.
 * Confined to the thread of the delivery.
 */
final class Delivery {

	private final ProviderEvent event;

	private final WebhookEvents ledger;

	private final OperationContext context;

	/** What the act step did, for the delivery that completes the record. */
	private ProviderEventEffect effect = new ProviderEventEffect.Duplicate();

	/** What to log and count once the completion committed. */
	private Runnable onCommit = () -> {
	};

	Delivery(ProviderEvent event, WebhookEvents ledger, OperationContext context) {
		this.event = event;
		this.ledger = ledger;
		this.context = context;
	}

	ProviderEvent event() {
		return this.event;
	}

	/** What the finish step decided; {@code Duplicate} until one ran. */
	ProviderEventEffect effect() {
		return this.effect;
	}

	/** Runs what the finish step left to do once its transaction committed. */
	void committed() {
		this.onCommit.run();
	}

	/** Sets what to log and count once the completion committed. */
	void afterCommit(Runnable action) {
		this.onCommit = action;
	}

	/** The row time of the completion transaction ({@link OperationContext#now()}). */
	Instant now() {
		return this.context.now();
	}

	/**
	 * Records the event in the ledger once; false if it was there (a redelivery after the
	 * engine's record expired).
	 */
	boolean record(@Nullable UUID paymentId, @Nullable UUID refundId, String effect) {
		return this.ledger.record(this.event, paymentId, refundId, effect, now());
	}

	/**
	 * Acknowledged, and recorded in the ledger as ignored within the engine's completion
	 * transaction; an event already in the ledger (its engine record expired before this
	 * redelivery) is a duplicate.
	 */
	Action<ProviderEventEffect> ignore(@Nullable UUID paymentId, @Nullable UUID refundId, String reason) {
		return acknowledge(new ProviderEventEffect.Ignored(reason), (id) -> record(paymentId, refundId, "IGNORED"));
	}

	/**
	 * Acknowledged with the given effect if the ledger write wrote, else as a duplicate.
	 */
	Action<ProviderEventEffect> acknowledge(ProviderEventEffect effect, Predicate<UUID> ledgerWrite) {
		return acknowledgeAs((id) -> ledgerWrite.test(id) ? effect : new ProviderEventEffect.Duplicate());
	}

	/**
	 * Acknowledged once the step, which runs in the completion transaction, decided the
	 * effect.
	 */
	Action<ProviderEventEffect> acknowledgeAs(Function<UUID, ProviderEventEffect> step) {
		return new Action.Finish<>((id) -> {
			this.effect = step.apply(id);
			return ProviderEvents.ACKNOWLEDGED;
		});
	}

}
