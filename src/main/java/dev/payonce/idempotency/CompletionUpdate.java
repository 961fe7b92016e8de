package dev.payonce.idempotency;

import java.util.function.Function;

/**
 * A resource's declared completion update ({@link ResourceTable#completionUpdate}), its
 * clauses checked when declared, at start-up.
 *
 * @param <R> the resource
 * @param placeholders the number of {@code ?} in {@code set} and {@code where}
 * @param arguments their values from the moved resource, {@code set}'s first
 */
record CompletionUpdate<R>(String table, String set, String where, int placeholders, Function<R, Object[]> arguments) {
}
