/**
 * Payonce application root. Modules: {@code client}, {@code idempotency},
 * {@code payment}, {@code gateway} and {@code web}; see {@code ModularityTests} for the
 * rules between them.
 */
@NullMarked
package dev.payonce;

import org.jspecify.annotations.NullMarked;
