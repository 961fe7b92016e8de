/**
 * Running Payonce in production: the guard that keeps libraries' logs free of credentials
 * and bodies, the ECS log format, the transaction settings, the failure analysis of bad
 * settings and its console reporter, and the shutdown drain that answers 503 to requests
 * arriving after a stop began (docs/design.md sections 11 and 12). No business module
 * depends on it.
 */
@NullMarked
package dev.payonce.ops;

import org.jspecify.annotations.NullMarked;
