/**
 * Benchmark support, built into the benchmark's jar only (the {@code bench} Maven
 * profile; never the production jar) and active only in the {@code bench} Spring
 * profile: an HTTP baseline that does the same HTTP work as a payment request and no
 * database work, so the benchmark harness can report what idempotency costs as a ratio
 * measured in the same JVM (bench/README.md).
 */
@NullMarked
package dev.payonce.benchmark;

import org.jspecify.annotations.NullMarked;
