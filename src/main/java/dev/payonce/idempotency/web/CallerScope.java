package dev.payonce.idempotency.web;

import dev.payonce.idempotency.IdempotencyScope;

/**
 * The engine scope of the current request's idempotency keys: a port the module that
 * authenticates callers implements, so that the engine's HTTP support knows whose keys it
 * reads (for the record quota and the key's log digest) without knowing who callers are
 * (docs/design.md section 1).
 */
public interface CallerScope {

	/**
	 * The scope of the request being handled on this thread.
	 * @return the scope, never {@code null}
	 * @throws IllegalStateException if the request was not authenticated as a caller that
	 * owns keys
	 */
	IdempotencyScope current();

}
