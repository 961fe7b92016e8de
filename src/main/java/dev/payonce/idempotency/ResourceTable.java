package dev.payonce.idempotency;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Pattern;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import jakarta.persistence.Embedded;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import jakarta.persistence.Version;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.SqlParameterValue;

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

	/** A plain lower-case table or column name, as PostgreSQL keeps it unquoted. */
	static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

	private final Class<R> type;

	private final String table;

	private final List<Column> columns;

	private final Column id;

	private final Column version;

	private final MethodHandle constructor;

	private @Nullable ClaimUpdate claimUpdate;

	private @Nullable SecondWrite<R> secondWrite;

	/** Set when the engine prepares the declaration at start-up. */
	private @Nullable PreparedResource<R> prepared;

	private ResourceTable(Class<R> type) {
		this.type = type;
		Table mapping = type.getAnnotation(Table.class);
		if (mapping == null || !NAME.matcher(mapping.name()).matches()) {
			throw new IllegalArgumentException(
					type.getName() + " names no plain lower-case table with @Table(name = ...)");
		}
		this.table = mapping.name();
		try {
			MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
			this.constructor = lookup.findConstructor(type, MethodType.methodType(void.class));
			List<Column> found = new ArrayList<>();
			collect(type, lookup, null, found);
			this.columns = List.copyOf(found);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalArgumentException(type.getName() + " cannot be read and built by the engine: " + ex, ex);
		}
		this.id = only(Column::id, "@Id");
		this.version = only(Column::version, "@Version");
		if (this.columns.stream().map(Column::name).distinct().count() != this.columns.size()) {
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
		this.secondWrite = new SecondWrite<>(SqlChecks.name(table), SqlChecks.clause(set), SqlChecks.clause(where),
				SqlChecks.placeholders(set) + SqlChecks.placeholders(where), Objects.requireNonNull(arguments));
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
	 * @return the finish step for {@link Action.Finish}
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

	List<Column> columns() {
		return this.columns;
	}

	Column id() {
		return this.id;
	}

	Column version() {
		return this.version;
	}

	@Nullable ClaimUpdate claimUpdateDeclared() {
		return this.claimUpdate;
	}

	@Nullable SecondWrite<R> secondWrite() {
		return this.secondWrite;
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
		for (Column column : this.columns) {
			column.read(resource, rs);
		}
		return resource;
	}

	private Column only(java.util.function.Predicate<Column> which, String annotation) {
		List<Column> matching = this.columns.stream().filter(which).toList();
		if (matching.size() != 1) {
			throw new IllegalArgumentException(
					this.type.getName() + " has " + matching.size() + " " + annotation + " fields, not one");
		}
		return matching.get(0);
	}

	/** A field of the resource class (mapped or {@code @Transient}), by name. */
	private Accessor field(String name) {
		for (Column column : this.columns) {
			if (column.accessor().name().equals(name)) {
				return column.accessor();
			}
		}
		try {
			Field field = this.type.getDeclaredField(name);
			return new Accessor(name, field.getType(),
					MethodHandles.privateLookupIn(this.type, MethodHandles.lookup()).unreflectVarHandle(field), null);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalArgumentException(this.type.getName() + " has no field " + name, ex);
		}
	}

	private static void collect(Class<?> type, MethodHandles.Lookup lookup, @Nullable Accessor owner,
			List<Column> found) throws ReflectiveOperationException {
		for (Field field : type.getDeclaredFields()) {
			if (Modifier.isStatic(field.getModifiers()) || Modifier.isTransient(field.getModifiers())
					|| field.isAnnotationPresent(Transient.class) || field.isSynthetic()) {
				continue;
			}
			MethodHandles.Lookup fieldLookup = MethodHandles.privateLookupIn(type, lookup);
			VarHandle handle = fieldLookup.unreflectVarHandle(field);
			if (field.isAnnotationPresent(Embedded.class)) {
				Class<?> group = field.getType();
				if (!group.isAnnotationPresent(Embeddable.class)) {
					throw new IllegalArgumentException(group.getName() + " is @Embedded but not @Embeddable");
				}
				MethodHandle create = MethodHandles.privateLookupIn(group, lookup)
					.findConstructor(group, MethodType.methodType(void.class));
				collect(group, lookup, new Accessor(field.getName(), group, handle, create), found);
				continue;
			}
			Column mapping = null;
			jakarta.persistence.Column column = field.getAnnotation(jakarta.persistence.Column.class);
			String name = (column != null && !column.name().isEmpty()) ? column.name() : snakeCase(field.getName());
			if (!NAME.matcher(name).matches()) {
				throw new IllegalArgumentException(
						type.getName() + "." + field.getName() + " maps to " + name + ", not a plain lower-case name");
			}
			boolean id = field.isAnnotationPresent(Id.class);
			boolean version = field.isAnnotationPresent(Version.class);
			mapping = new Column(name, new Accessor(field.getName(), field.getType(), handle, null), owner, id, version,
					column == null || column.insertable(), !id && !version && (column == null || column.updatable()));
			found.add(mapping);
		}
	}

	/**
	 * The column name Spring Boot's default physical naming strategy gives a field
	 * ({@code providerKeyGeneration} → {@code provider_key_generation}).
	 */
	static String snakeCase(String field) {
		StringBuilder name = new StringBuilder(field.length() + 4);
		for (int i = 0; i < field.length(); i++) {
			char c = field.charAt(i);
			if (Character.isUpperCase(c)) {
				name.append('_').append(Character.toLowerCase(c));
			}
			else {
				name.append(c);
			}
		}
		return name.toString();
	}

	/**
	 * A field and its handle, found once; reads and writes go through the handle, and
	 * values are converted to and from what the JDBC driver binds.
	 *
	 * @param create the no-argument constructor of an embedded column group, or
	 * {@code null} for a plain field
	 */
	record Accessor(String name, Class<?> type, VarHandle handle, @Nullable MethodHandle create) {

		@Nullable Object get(Object target) {
			return this.handle.get(target);
		}

		void set(Object target, @Nullable Object value) {
			this.handle.set(target, value);
		}

		/** Converts a value the database returned to this field's type. */
		@Nullable Object fromDatabase(@Nullable Object value) {
			if (value == null) {
				return null;
			}
			if (this.type == long.class || this.type == Long.class) {
				return ((Number) value).longValue();
			}
			if (this.type == int.class || this.type == Integer.class) {
				return ((Number) value).intValue();
			}
			if (this.type == Instant.class) {
				return (value instanceof OffsetDateTime at) ? at.toInstant() : ((java.sql.Timestamp) value).toInstant();
			}
			if (this.type.isEnum()) {
				return enumValue(this.type, value.toString());
			}
			if (this.type == String.class) {
				return value.toString();
			}
			return value;
		}

		@SuppressWarnings({ "unchecked", "rawtypes" })
		private static Object enumValue(Class<?> type, String name) {
			return Enum.valueOf((Class<? extends Enum>) type, name);
		}

	}

	/**
	 * One mapped column: its name, its field, the column group it belongs to (or
	 * {@code null}), and whether it is the id, the version, and written on insert and on
	 * update.
	 */
	record Column(String name, Accessor accessor, @Nullable Accessor owner, boolean id, boolean version,
			boolean insertable, boolean updatable) {

		/** The value to bind for {@code resource}; a {@code null} names its SQL type. */
		Object bind(Object resource) {
			Object holder = holder(resource, false);
			Object value = (holder != null) ? this.accessor.get(holder) : null;
			if (value == null) {
				return new SqlParameterValue(sqlType(), null);
			}
			if (value instanceof Instant instant) {
				return instant.atOffset(ZoneOffset.UTC);
			}
			if (value instanceof Enum<?> constant) {
				return constant.name();
			}
			return value;
		}

		void set(Object resource, @Nullable Object value) {
			Object holder = holder(resource, true);
			if (holder != null) {
				this.accessor.set(holder, this.accessor.fromDatabase(value));
			}
		}

		void read(Object resource, ResultSet rs) throws SQLException {
			Class<?> type = this.accessor.type();
			Object value;
			if (type == Instant.class) {
				value = rs.getObject(this.name, OffsetDateTime.class);
			}
			else if (type == UUID.class) {
				value = rs.getObject(this.name, UUID.class);
			}
			else {
				value = rs.getObject(this.name);
			}
			if (value == null && type.isPrimitive()) {
				throw new IllegalStateException("Column " + this.name + " is null for a primitive field");
			}
			set(resource, value);
		}

		private @Nullable Object holder(Object resource, boolean create) {
			Accessor group = this.owner;
			if (group == null) {
				return resource;
			}
			Object holder = group.get(resource);
			if (holder == null && create) {
				try {
					holder = Objects.requireNonNull(group.create()).invoke();
				}
				catch (Throwable ex) {
					throw new IllegalStateException("Cannot build the column group " + group.name(), ex);
				}
				group.set(resource, holder);
			}
			return holder;
		}

		int sqlType() {
			Class<?> type = this.accessor.type();
			if (type == Instant.class) {
				return Types.TIMESTAMP_WITH_TIMEZONE;
			}
			if (type == Long.class || type == long.class) {
				return Types.BIGINT;
			}
			if (type == Integer.class || type == int.class) {
				return Types.INTEGER;
			}
			if (type == UUID.class) {
				return Types.OTHER;
			}
			return Types.VARCHAR;
		}

	}

	/**
	 * The declared claim update, checked when declared.
	 *
	 * @param into the fields it sets, each from a returned column, ordered by field
	 */
	record ClaimUpdate(String table, String set, @Nullable String from, String where, List<Into> into,
			@Nullable String precheck) {

		ClaimUpdate {
			SqlChecks.name(table);
			SqlChecks.clause(set);
			SqlChecks.clause(where);
			if (from != null) {
				SqlChecks.clause(from);
			}
			if (precheck != null) {
				SqlChecks.clause(precheck);
			}
			if (into.isEmpty()) {
				throw new IllegalArgumentException("A claim update returns at least one column");
			}
			into.forEach((field) -> SqlChecks.name(field.returned()));
			into = List.copyOf(into);
		}

		int arguments() {
			return SqlChecks.placeholders(this.set) + ((this.from != null) ? SqlChecks.placeholders(this.from) : 0)
					+ SqlChecks.placeholders(this.where);
		}

		int precheckArguments() {
			return (this.precheck != null) ? SqlChecks.placeholders(this.precheck) : 0;
		}

		/** A field the update sets from the column it returns. */
		record Into(Accessor field, String returned) {
		}

	}

	/** The declared completion update. */
	record SecondWrite<R>(String table, String set, String where, int placeholders, Function<R, Object[]> arguments) {
	}

}
