/**
 * Benchmark support, active only in the {@code bench} profile: an HTTP baseline that does
 * the same HTTP work as a payment request and no database work, so the benchmark harness
 * can report what idempotency costs as a ratio measured in the same JVM
 * (bench/README.md).
 */
@NullMarked
package dev.payonce.benchmark;

import org.jspecify.annotations.NullMarked;
