package dev.payonce.idempotency;

import java.util.List;
import java.util.Objects;

/**
 * An operation's claim step as one {@code INSERT} of its new resource, which the engine
 * runs in the claim's own statement (docs/design.md section 4, "The claim in one
 * statement"; {@link IdempotentOperation#insert}): {@code INSERT INTO table (columns)
 * SELECT values FROM <the claimed record>}, so the resource is inserted exactly when the
 * record is, and the two commit together or not at all.
 *
 * @param <R> the resource type
 * @param resource the resource as inserted, handed to the act step as
 * {@link IdempotentOperation#create}'s would be; its version, if it has one, is the one
 * the {@code INSERT} writes
 * @param table the table, for example {@code payments}
 * @param columns the columns written, plain lower-case names
 * @param values one per column, in order, each bound to a positional parameter; a
 * {@code null} is bound as a {@link org.springframework.jdbc.core.SqlParameterValue} with
 * its SQL type
 */
public record ResourceInsert<R>(R resource, String table, List<String> columns, List<Object> values) {

	/**
	 * @throws IllegalArgumentException if the table or a column is not a plain lower-case
	 * name, there are no columns, a value is {@code null}, or there are not as many
	 * values as columns
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
	}

}
