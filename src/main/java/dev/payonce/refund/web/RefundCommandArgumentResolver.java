package dev.payonce.refund.web;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.servlet.HandlerMapping;

import dev.payonce.client.ClientId;
import dev.payonce.client.CurrentClient;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.web.IdempotencyKeyArgumentResolver;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.web.CommandArgumentResolver;
import dev.payonce.payment.web.FieldError;
import dev.payonce.payment.web.PaymentController;
import dev.payonce.payment.web.PaymentProblems;
import dev.payonce.refund.RefundCommand;

/**
 * Resolves the {@link RefundCommand} of {@code POST /payments/{id}/refunds}
 * (docs/design.md section 8): a body, when sent, must be JSON, and an empty one must come
 * without a {@code Content-Type}; then the payment id's spelling, then the body as
 * {@link RefundRequestReader} reads it.
 */
@Component
class RefundCommandArgumentResolver extends CommandArgumentResolver<RefundCommand> {

	private final RefundRequestReader reader;

	RefundCommandArgumentResolver(IdempotencyKeyArgumentResolver keys, CurrentClient currentClient,
			RefundRequestReader reader) {
		super(RefundCommand.class, keys, currentClient);
		this.reader = reader;
	}

	@Override
	protected RefundCommand read(ClientId clientId, IdempotencyKey key, byte[] body, NativeWebRequest request)
			throws HttpMediaTypeNotSupportedException {
		@Nullable String contentType = request.getHeader(HttpHeaders.CONTENT_TYPE);
		if (body.length > 0) {
			requireJson(contentType);
		}
		else if (contentType != null) {
			// An empty body refunds all that remains, so it must be meant: a body that
			// was declared but arrived empty (a serializer dropped it) is refused.
			throw PaymentProblems.invalidRequest(List.of(new FieldError("",
					"a Content-Type was sent with an empty body: send {} to refund all that remains, "
							+ "or send neither a body nor a Content-Type")));
		}
		PaymentId paymentId = PaymentController.parseId(pathVariable(request, "id"));
		return this.reader.read(clientId, key, paymentId, body);
	}

	private static void requireJson(@Nullable String contentType) throws HttpMediaTypeNotSupportedException {
		MediaType type;
		try {
			type = StringUtils.hasLength(contentType) ? MediaType.parseMediaType(contentType) : null;
		}
		catch (InvalidMediaTypeException ex) {
			type = null;
		}
		if (type == null || !MediaType.APPLICATION_JSON.includes(type)) {
			throw new HttpMediaTypeNotSupportedException(type, List.of(MediaType.APPLICATION_JSON));
		}
	}

	private static String pathVariable(NativeWebRequest request, String name) {
		if (request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE,
				RequestAttributes.SCOPE_REQUEST) instanceof Map<?, ?> variables
				&& variables.get(name) instanceof String value) {
			return value;
		}
		throw new IllegalStateException("The handler's path has no {" + name + "}");
	}

}
