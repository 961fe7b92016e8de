package dev.payonce.idempotency;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * An operation's claim step as one {@code INSERT} of its new resource, which the engine
 * runs in the claim's own statement (docs/design.md section 4, "The claim in one
 * statement"; {@link IdempotentOperation#insert}): {@code INSERT INTO table (columns)
 * SELECT values FROM <the claimed record>}, so the resource is inserted exactly when the
 * record is, and the two commit together or not at all.
 *
 * <p>
 * An insert made {@link #after} a {@link ClaimUpdate} runs only once that update has
 * updated its row, and its values may read what the update returned ({@link #returned});
 * the resource is then built from those returned values. A plain insert never refuses;
 * one after an update refuses when the update matches no row.
 *
 * @param <R> the resource type
 * @param resource builds the resource as inserted, handed to the act step as
 * {@link IdempotentOperation#create}'s would be, from the columns the update returned (an
 * empty map without an update); its version, if it has one, is the one the {@code INSERT}
 * writes
 * @param table the table, for example {@code payments}
 * @param columns the columns written, plain lower-case names
 * @param values one per column, in order, each bound to a positional parameter, or a
 * {@link Returned} column of the update; a {@code null} is bound as a
 * {@link org.springframework.jdbc.core.SqlParameterValue} with its SQL type
 * @param update the update made first, or {@code null} for none
 */
public record ResourceInsert<R>(Function<Map<String, @Nullable Object>, R> resource, String table, List<String> columns,
		List<Object> values, @Nullable ClaimUpdate update) {

	/**
	 * @throws IllegalArgumentException if the table or a column is not a plain lower-case
	 * name, there are no columns, a value is {@code null}, there are not as many values
	 * as columns, or a value reads a column the update does not return (or there is no
	 * update)
	 */
	public ResourceInsert {
		Objects.requireNonNull(resource, "resource");
		if (!SqlFragments.isName(table) || columns.isEmpty() || !columns.stream().allMatch(SqlFragments::isName)) {
			throw new IllegalArgumentException("A resource insert names its table and columns in [a-z0-9_]");
		}
		if (values.size() != columns.size()) {
			throw new IllegalArgumentException(
					"A resource insert has " + columns.size() + " columns and " + values.size() + " values");
		}
		columns = List.copyOf(columns);
		values = SqlFragments.values("A resource insert", values);
		for (Object value : values) {
			if (value instanceof Returned returned
					&& (update == null || !update.returning().contains(returned.column()))) {
				throw new IllegalArgumentException(
						"A resource insert reads " + returned.column() + ", which its claim update does not return");
			}
		}
	}

	/**
	 * A plain insert, made as soon as the record is.
	 * @param resource the resource as inserted
	 * @see #ResourceInsert(Function, String, List, List, ClaimUpdate)
	 */
	public ResourceInsert(R resource, String table, List<String> columns, List<Object> values) {
		this((returned) -> resource, table, columns, values, null);
		Objects.requireNonNull(resource, "resource");
	}

	/**
	 * An insert made after {@code update} has updated exactly one row; the claim is
	 * refused otherwise ({@link ClaimUpdate}).
	 * @param <R> the resource type
	 * @param update the update made first
	 * @param resource builds the resource from the columns the update returned
	 * @param table the table
	 * @param columns the columns written
	 * @param values one per column: bound values, or {@link #returned} columns
	 * @return the insert
	 */
	public static <R> ResourceInsert<R> after(ClaimUpdate update, Function<Map<String, @Nullable Object>, R> resource,
			String table, List<String> columns, List<Object> values) {
		return new ResourceInsert<>(resource, table, columns, values, Objects.requireNonNull(update, "update"));
	}

	/**
	 * A value that reads a column the {@link ClaimUpdate} returned, for {@link #values}.
	 * @param column one of the update's {@link ClaimUpdate#returning} columns
	 * @return the value
	 */
	public static Returned returned(String column) {
		return new Returned(column);
	}

	/**
	 * A value of the resource's {@code INSERT} read from what the claim update returned.
	 *
	 * @param column the returned column
	 */
	public record Returned(String column) {

		/**
		 * @throws IllegalArgumentException if the column is not a plain lower-case name
		 */
		public Returned {
			if (!SqlFragments.isName(column)) {
				throw new IllegalArgumentException("A returned column is named in [a-z0-9_]");
			}
		}

	}

}
