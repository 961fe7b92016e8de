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
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import jakarta.persistence.Embeddable;
import jakarta.persistence.Embedded;
import jakarta.persistence.Id;
import jakarta.persistence.Transient;
import jakarta.persistence.Version;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.SqlParameterValue;

/**
 * One mapped column of a {@link ResourceTable}, read once from the resource class's JPA
 * mapping at start-up ({@code @Column}, {@code @Id}, {@code @Version}, {@code @Embedded}
 * column groups): its name, its field, the column group it belongs to (or {@code null}),
 * and whether it is the id, the version, and written on insert and on update. Binds a
 * resource's value for the JDBC driver and sets one read back.
 */
record MappedColumn(String name, Accessor accessor, @Nullable Accessor owner, boolean id, boolean version,
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

	/**
	 * Adds the mapped columns of {@code type}'s fields to {@code found}, those of an
	 * {@code @Embedded} group through its {@code owner}.
	 * @throws IllegalArgumentException if a column name is not a plain lower-case name or
	 * an embedded type is not {@code @Embeddable}
	 */
	static void collect(Class<?> type, MethodHandles.Lookup lookup, @Nullable Accessor owner, List<MappedColumn> found)
			throws ReflectiveOperationException {
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
			MappedColumn mapping = null;
			jakarta.persistence.Column column = field.getAnnotation(jakarta.persistence.Column.class);
			String name = (column != null && !column.name().isEmpty()) ? column.name() : snakeCase(field.getName());
			if (!SqlChecks.NAME.matcher(name).matches()) {
				throw new IllegalArgumentException(
						type.getName() + "." + field.getName() + " maps to " + name + ", not a plain lower-case name");
			}
			boolean id = field.isAnnotationPresent(Id.class);
			boolean version = field.isAnnotationPresent(Version.class);
			mapping = new MappedColumn(name, new Accessor(field.getName(), field.getType(), handle, null), owner, id,
					version, column == null || column.insertable(),
					!id && !version && (column == null || column.updatable()));
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

}
