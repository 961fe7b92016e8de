package dev.payonce.idempotency;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;

import jakarta.persistence.Table;
import org.jspecify.annotations.Nullable;

import dev.payonce.idempotency.IdempotentOperation.FinishStep;

/**
 * An operation's resource as the engine stores it, declared once: the table and columns
 * are read from the resource class's JPA mapping ({@code @Table}, {@code @Id},
 * {@code @Column}, {@code @Version}, {@code @Embedded} column groups) when the
 * declaration is built, at start-up, so the mapping stays the one description of the row
 * in Java (docs/design.md section 9). Register it as a bean; the engine builds every
 * statement it runs for the resource (the claim in one statement, the plain insert, the
 * reload, the versioned write and the completion in one statement) once, when it starts,
 * and refuses to start if a declaration is malformed (docs/design.md section 4, "The
 * claim in one statement", "Completion in one statement"). Per request only values cross:
 * the resource, read through accessors found at start-up, and the arguments of a declared
 * claim update.
 *
 * <p>
 * The engine writes the resource itself: it inserts a new one with version 0 (as a JPA
 * persist's first {@code INSERT} would), reloads it for a takeover, and completes it by
 * one {@code UPDATE} of its updatable columns conditioned on the version read and moving
 * it on by one (as a JPA write would). A {@link Transition} moves the resource in memory;
 * {@link #finish(Object, Transition)} and {@link #finish(Transition)} turn it into the
 * completion.
 *
 * @param <R> the resource class: a class with a no-argument constructor, an
 * {@code @Table} name, one {@code @Id} and one {@code @Version} field
 */
public final class ResourceTable<R> {

	private final Class<R> type;

	private final String table;

	private final List<MappedColumn> columns;

	private final MappedColumn id;

	private final MappedColumn version;

	private final MethodHandle constructor;

	private @Nullable ClaimUpdate claimUpdate;

	private @Nullable CompletionUpdate<R> completionUpdate;

	private @Nullable CompletionInsert<R> completionInsert;

	/** Set when the engine prepares the declaration at start-up. */
	private @Nullable PreparedResource<R> prepared;

	private ResourceTable(Class<R> type) {
		this.type = type;
		Table mapping = type.getAnnotation(Table.class);
		if (mapping == null || !SqlChecks.NAME.matcher(mapping.name()).matches()) {
			throw new IllegalArgumentException(
					type.getName() + " names no plain lower-case table with @Table(name = ...)");
		}
		this.table = mapping.name();
		try {
			MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
			this.constructor = lookup.findConstructor(type, MethodType.methodType(void.class));
			List<MappedColumn> found = new ArrayList<>();
			MappedColumn.collect(type, lookup, null, found);
			this.columns = List.copyOf(found);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalArgumentException(type.getName() + " cannot be read and built by the engine: " + ex, ex);
		}
		this.id = only(MappedColumn::id, "@Id");
		this.version = only(MappedColumn::version, "@Version");
		if (this.columns.stream().map(MappedColumn::name).distinct().count() != this.columns.size()) {
			throw new IllegalArgumentException(type.getName() + " maps one column twice");
		}
	}

	/**
	 * The declaration of a resource mapped by JPA annotations.
	 * @param <R> the resource class
	 * @param type the resource class
	 * @return the declaration
	 * @throws IllegalArgumentException if the class has no plain {@code @Table} name, a
	 * column name is not a plain lower-case name, there is not exactly one {@code @Id}
	 * and one {@code @Version}, or it has no no-argument constructor
	 */
	public static <R> ResourceTable<R> of(Class<R> type) {
		return new ResourceTable<>(type);
	}

	/**
	 * Declares the conditional {@code UPDATE} the claim makes before it inserts a new
	 * resource (for a refund: the reservation of its amount on the payment), run by the
	 * engine in the claim's statement or transaction only once the record is inserted;
	 * the claim stands only if it updated exactly one row, and is otherwise refused with
	 * {@link IdempotentOperation#refusal()} (docs/design.md section 4, "The claim in one
	 * statement"). The engine builds
	 * {@code UPDATE table SET set [FROM from] WHERE (where) ... RETURNING ...}; its
	 * positional {@code ?} parameters are bound from
	 * {@link IdempotentOperation#claimArguments} (the clauses' first, in order, then the
	 * precheck's).
	 * @param table the table updated
	 * @param set the {@code SET} clause without the keyword
	 * @param from the {@code FROM} clause without the keyword, or {@code null}
	 * @param where the condition without the keyword
	 * @param returned for each field of the resource that the update sets, the column (of
	 * {@code table} or {@code from}, unambiguous) whose returned value it takes; a mapped
	 * field's column is then inserted from that value
	 * @param precheck a boolean expression that reads, without locking, whether the
	 * update would match, evaluated before the record is inserted; {@code null} for none
	 * @return this declaration
	 * @throws IllegalArgumentException if a name is not plain, a clause is blank or holds
	 * a {@code ;}, or a field is not the resource's
	 */
	public ResourceTable<R> claimUpdate(String table, String set, @Nullable String from, String where,
			Map<String, String> returned, @Nullable String precheck) {
		Map<String, String> ordered = new LinkedHashMap<>();
		returned.entrySet()
			.stream()
			.sorted(Map.Entry.comparingByKey())
			.forEach((entry) -> ordered.put(entry.getKey(), entry.getValue()));
		List<ClaimUpdate.Into> into = new ArrayList<>();
		for (Map.Entry<String, String> entry : ordered.entrySet()) {
			into.add(new ClaimUpdate.Into(field(entry.getKey()), entry.getValue()));
		}
		this.claimUpdate = new ClaimUpdate(table, set, from, where, into, precheck);
		return this;
	}

	/**
	 * Declares a second {@code UPDATE} that every completion of the resource makes right
	 * after the resource's own write, in the same fenced statement or transaction (for a
	 * refund: the settlement of its reservation on the payment). If it matches no row,
	 * nothing of the completion stays.
	 * @param table the table updated
	 * @param set the {@code SET} clause without the keyword
	 * @param where the condition without the keyword
	 * @param arguments the values of its {@code ?} placeholders ({@code set}'s first),
	 * from the moved resource
	 * @return this declaration
	 * @throws IllegalArgumentException if the table is not a plain name or a clause is
	 * blank or holds a {@code ;}
	 */
	public ResourceTable<R> completionUpdate(String table, String set, String where, Function<R, Object[]> arguments) {
		this.completionUpdate = new CompletionUpdate<>(SqlChecks.name(table), SqlChecks.clause(set),
				SqlChecks.clause(where), SqlChecks.placeholders(set) + SqlChecks.placeholders(where),
				Objects.requireNonNull(arguments));
		return this;
	}

	/**
	 * Declares a row that every completion of the resource inserts, in the same fenced
	 * statement or transaction as the resource's write and the stored response, and only
	 * if the record was completed: a stale attempt inserts nothing, and a completion that
	 * committed always inserted it (an outbox row, for example a merchant event:
	 * docs/design.md section 4, "Completion in one statement"). The engine builds
	 * {@code INSERT INTO table (columns) SELECT ?, ... WHERE <the record completed>}.
	 * @param table the table a row is inserted into
	 * @param columns the columns given a value; the table's defaults fill the others
	 * @param values the row's values, one per column in order, from the moved resource
	 * @return this declaration
	 * @throws IllegalArgumentException if a name is not a plain lower-case name or there
	 * is no column
	 */
	public ResourceTable<R> completionInsert(String table, List<String> columns, Function<R, Object[]> values) {
		if (columns.isEmpty()) {
			throw new IllegalArgumentException("A completion insert into " + table + " names no column");
		}
		this.completionInsert = new CompletionInsert<>(SqlChecks.name(table),
				columns.stream().map(SqlChecks::name).toList(), Objects.requireNonNull(values));
		return this;
	}

	/**
	 * The completion over the copy the act step read, without reading it again:
	 * {@code transition} moves the copy in memory and renders the response, and the
	 * engine stores it with the copy's versioned write (and the declared completion
	 * update) in one statement. If the row changed since the copy was read, nothing of
	 * that is written and the engine completes as {@link #finish(Transition)} does.
	 * @param read the resource as the act step read it (with its version)
	 * @param transition the move, pure: it may run a second time on a reloaded copy
	 * @return the finish step for {@link IdempotentOperation.Action.Finish}
	 */
	public FinishStep finish(R read, Transition<R> transition) {
		return new ResourceFinish<>(prepared(), Objects.requireNonNull(read), transition);
	}

	/**
	 * The completion that reads the resource inside the fenced completion transaction
	 * ({@code FOR UPDATE}), moves it with {@code transition} and writes it, as for an
	 * outcome learned outside the act step (a webhook event, the reconciler).
	 * @param transition the move
	 * @return the finish step
	 */
	public FinishStep finish(Transition<R> transition) {
		return new ResourceFinish<>(prepared(), null, transition);
	}

	/**
	 * The resource class.
	 * @return the class declared
	 */
	public Class<R> type() {
		return this.type;
	}

	/**
	 * The table.
	 * @return the plain lower-case table name
	 */
	public String table() {
		return this.table;
	}

	PreparedResource<R> prepared() {
		PreparedResource<R> ready = this.prepared;
		if (ready == null) {
			throw new IllegalStateException("The resource table of " + this.type.getSimpleName()
					+ " is not registered with the engine: declare it as a bean");
		}
		return ready;
	}

	void prepare(PreparedResource<R> statements) {
		this.prepared = statements;
	}

	List<MappedColumn> columns() {
		return this.columns;
	}

	MappedColumn id() {
		return this.id;
	}

	MappedColumn version() {
		return this.version;
	}

	@Nullable ClaimUpdate claimUpdateDeclared() {
		return this.claimUpdate;
	}

	@Nullable CompletionUpdate<R> completionUpdateDeclared() {
		return this.completionUpdate;
	}

	@Nullable CompletionInsert<R> completionInsertDeclared() {
		return this.completionInsert;
	}

	/** A new, empty instance, for the engine's reload. */
	@SuppressWarnings("unchecked")
	R instantiate() {
		try {
			return (R) this.constructor.invoke();
		}
		catch (Throwable ex) {
			throw new IllegalStateException("Cannot build a " + this.type.getSimpleName(), ex);
		}
	}

	/** The resource as read from the current row of {@code rs}, its columns by name. */
	R read(ResultSet rs) throws SQLException {
		R resource = instantiate();
		for (MappedColumn column : this.columns) {
			column.read(resource, rs);
		}
		return resource;
	}

	private MappedColumn only(java.util.function.Predicate<MappedColumn> which, String annotation) {
		List<MappedColumn> matching = this.columns.stream().filter(which).toList();
		if (matching.size() != 1) {
			throw new IllegalArgumentException(
					this.type.getName() + " has " + matching.size() + " " + annotation + " fields, not one");
		}
		return matching.get(0);
	}

	/** A field of the resource class (mapped or {@code @Transient}), by name. */
	private MappedColumn.Accessor field(String name) {
		for (MappedColumn column : this.columns) {
			if (column.accessor().name().equals(name)) {
				return column.accessor();
			}
		}
		try {
			Field field = this.type.getDeclaredField(name);
			return new MappedColumn.Accessor(name, field.getType(),
					MethodHandles.privateLookupIn(this.type, MethodHandles.lookup()).unreflectVarHandle(field), null);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalArgumentException(this.type.getName() + " has no field " + name, ex);
		}
	}

	/**
	 * An operation's one move of its resource to a final state, with the response to
	 * store (docs/design.md section 4, "Completion in one statement"): for a payment,
	 * {@code markSucceeded} and the 201 it answers. It moves the resource in memory only;
	 * the engine writes the resource's declared columns ({@link ResourceTable}) and
	 * stores the response in the fenced completion. It may run twice for one completion:
	 * once on the copy the act step read, and, if that copy's row changed since, again on
	 * the resource read inside the fenced completion transaction.
	 *
	 * @param <R> the resource
	 */
	@FunctionalInterface
	public interface Transition<R> {

		/**
		 * Moves {@code resource} and renders the response.
		 * @param resource the resource, as read
		 * @return the response, stored with the record and replayed to every retry
		 * @throws IllegalStateException if the resource cannot make the move (for example
		 * it is final already); the completion then writes nothing
		 */
		StoredResponse apply(R resource);

		/**
		 * Runs once the completion that wrote this move has committed (for a log line and
		 * a metric); never for a stale attempt. Does nothing by default.
		 * @param resource the moved resource
		 * @param response the response stored
		 */
		default void completed(R resource, StoredResponse response) {
		}

		/**
		 * A transition that announces itself once written.
		 * @param <R> the resource
		 * @param move moves the resource and renders the response ({@link #apply})
		 * @param completed runs once the completion that wrote the move committed
		 * ({@link #completed})
		 * @return the transition
		 */
		static <R> Transition<R> of(Function<R, StoredResponse> move, BiConsumer<R, StoredResponse> completed) {
			return new Transition<>() {
				@Override
				public StoredResponse apply(R resource) {
					return move.apply(resource);
				}

				@Override
				public void completed(R resource, StoredResponse response) {
					completed.accept(resource, response);
				}
			};
		}

	}

}
