/**
 * A payment provider simulator that behaves like a real one: it deduplicates by provider
 * idempotency key and keeps its own ledger in {@code simulated_provider_charges}, written
 * in its own transaction (docs/design.md section 5). The default gateway for local runs
 * and tests.
 */
@NullMarked
package dev.payonce.gateway.simulator;

import org.jspecify.annotations.NullMarked;
