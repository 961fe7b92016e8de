package dev.payonce.capture.web;

import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.servlet.HandlerMapping;

import dev.payonce.capture.VoidCommand;
import dev.payonce.client.ClientId;
import dev.payonce.client.CurrentClient;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.web.IdempotencyKeyArgumentResolver;
import dev.payonce.payment.web.CommandArgumentResolver;
import dev.payonce.payment.web.FieldError;
import dev.payonce.payment.web.PaymentController;
import dev.payonce.payment.web.PaymentProblems;

/**
 * Resolves the {@link VoidCommand} of {@code POST /payments/{id}/void} (docs/design.md
 * section 15): a void has no body, so any body is refused; then the payment id's
 * spelling.
 */
@Component
class VoidCommandArgumentResolver extends CommandArgumentResolver<VoidCommand> {

	VoidCommandArgumentResolver(IdempotencyKeyArgumentResolver keys, CurrentClient currentClient) {
		super(VoidCommand.class, keys, currentClient);
	}

	@Override
	protected VoidCommand read(ClientId clientId, IdempotencyKey key, byte[] body, NativeWebRequest request) {
		if (body.length > 0) {
			throw PaymentProblems.invalidRequest(List.of(new FieldError("", "a void takes no body")));
		}
		if (request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE,
				RequestAttributes.SCOPE_REQUEST) instanceof Map<?, ?> variables
				&& variables.get("id") instanceof String id) {
			return new VoidCommand(clientId, key, PaymentController.parseId(id));
		}
		throw new IllegalStateException("The handler's path has no {id}");
	}

}
