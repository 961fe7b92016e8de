package dev.payonce.provider;

import org.springframework.stereotype.Component;

import dev.payonce.client.CurrentClient;
import dev.payonce.idempotency.IdempotencyScope;
import dev.payonce.idempotency.web.CallerScope;

/**
 * The engine scope of an API request's keys: the calling client's
 * ({@link OperationContext#scope}), the same scope its payments and refunds claim in.
 */
@Component
class ClientCallerScope implements CallerScope {

	private final CurrentClient currentClient;

	ClientCallerScope(CurrentClient currentClient) {
		this.currentClient = currentClient;
	}

	@Override
	public IdempotencyScope current() {
		return OperationContext.scope(this.currentClient.clientId());
	}

}
