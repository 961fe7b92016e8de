/**
 * Payonce application root. Modules: {@code idempotency} (the engine), {@code provider}
 * (the provider port and what operations share), the operations {@code payment},
 * {@code refund} and {@code webhook}, the adapters {@code gateway}, and {@code client},
 * {@code web} and {@code ops}; see {@code ModularityTests} for the rules between them.
 * The benchmark's HTTP baseline ({@code src/bench/java}) is built into the benchmark's
 * jar only.
 */
@NullMarked
package dev.payonce;

import org.jspecify.annotations.NullMarked;
