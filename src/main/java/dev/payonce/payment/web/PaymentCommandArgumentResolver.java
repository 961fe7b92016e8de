package dev.payonce.payment.web;

import org.springframework.stereotype.Component;
import org.springframework.web.context.request.NativeWebRequest;

import dev.payonce.client.ClientId;
import dev.payonce.client.CurrentClient;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.web.IdempotencyKeyArgumentResolver;
import dev.payonce.payment.PaymentCommand;

/**
 * Resolves the {@link PaymentCommand} of {@code POST /payments} from its body, read by
 * {@link PaymentRequestReader}.
 */
@Component
class PaymentCommandArgumentResolver extends CommandArgumentResolver<PaymentCommand> {

	private final PaymentRequestReader reader;

	PaymentCommandArgumentResolver(IdempotencyKeyArgumentResolver keys, CurrentClient currentClient,
			PaymentRequestReader reader) {
		super(PaymentCommand.class, keys, currentClient);
		this.reader = reader;
	}

	@Override
	protected PaymentCommand read(ClientId clientId, IdempotencyKey key, byte[] body, NativeWebRequest request) {
		return this.reader.read(clientId, key, body);
	}

}
