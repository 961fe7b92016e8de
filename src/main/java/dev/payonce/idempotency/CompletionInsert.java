package dev.payonce.idempotency;

import java.util.List;
import java.util.function.Function;

/**
 * A resource's declared completion insert ({@link ResourceTable#completionInsert}), its
 * names checked when declared, at start-up.
 *
 * @param <R> the resource
 * @param table the table a row is inserted into
 * @param columns the columns given a value, in the order of {@code values}
 * @param values the row's values from the moved resource, one per column
 */
record CompletionInsert<R>(String table, List<String> columns, Function<R, Object[]> values) {
}
