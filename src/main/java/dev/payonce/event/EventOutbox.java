package dev.payonce.event;

import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.IllegalTransactionStateException;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.payonce.idempotency.ResourceTable;

/**
 * The outbox of merchant events (docs/events.md, "The outbox"): an event row exists
 * exactly when the change it reports committed. An operation's completion writes it
 * through the engine ({@link #onCompletion}): the engine inserts the row in the fenced
 * completion statement or transaction, only if the record was completed, so a stale
 * attempt that the fence refuses writes none (docs/design.md section 4, "Completion in
 * one statement"). A change made outside the engine (a provider event's effect) writes it
 * with {@link #record} in its own transaction. Thread-safe.
 */
@Component
public class EventOutbox {

	/** The outbox table. */
	static final String TABLE = "merchant_events";

	private static final List<String> COLUMNS = List.of("id", "client_id", "type", "resource_id", "payload");

	private final JdbcClient jdbc;

	EventOutbox(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Declares that every completion of the resource writes its event, in the same fenced
	 * statement or transaction ({@link ResourceTable#completionInsert}).
	 * @param <R> the resource
	 * @param table the resource's declaration
	 * @param event the event of the moved resource (its final status and receipt)
	 * @return the declaration
	 */
	public static <R> ResourceTable<R> onCompletion(ResourceTable<R> table, Function<R, NewEvent> event) {
		return table.completionInsert(TABLE, COLUMNS, (resource) -> values(event.apply(resource)));
	}

	/**
	 * Writes an event in the caller's transaction, for a change made outside the engine;
	 * it commits or rolls back with that change.
	 * @param event the event
	 * @return the event's id
	 * @throws IllegalTransactionStateException if no transaction is active: an event
	 * written on its own could outlive a change that rolled back
	 */
	public UUID record(NewEvent event) {
		if (!TransactionSynchronizationManager.isActualTransactionActive()) {
			throw new IllegalTransactionStateException("An event is written in the transaction of its change");
		}
		Object[] values = values(event);
		this.jdbc.sql("INSERT INTO merchant_events (id, client_id, type, resource_id, payload) VALUES (?, ?, ?, ?, ?)")
			.params(values)
			.update();
		return (UUID) values[0];
	}

	private static Object[] values(NewEvent event) {
		return new Object[] { UUID.randomUUID(), event.clientId(), event.type(), event.resourceId(), event.payload() };
	}

}
