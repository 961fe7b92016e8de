/**
 * Payonce application root. Modules: {@code idempotency} (the engine), {@code provider}
 * (the provider port and what operations share), the operations {@code payment},
 * {@code refund} and {@code webhook}, the adapters {@code gateway}, and {@code client},
 * {@code web}, {@code ops} and {@code benchmark}; see {@code ModularityTests} for the
 * rules between them.
 */
@NullMarked
package dev.payonce;

import org.jspecify.annotations.NullMarked;
