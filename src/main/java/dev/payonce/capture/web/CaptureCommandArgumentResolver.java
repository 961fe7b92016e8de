package dev.payonce.capture.web;

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

import dev.payonce.capture.CaptureCommand;
import dev.payonce.client.ClientId;
import dev.payonce.client.CurrentClient;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.web.IdempotencyKeyArgumentResolver;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.web.CommandArgumentResolver;
import dev.payonce.payment.web.FieldError;
import dev.payonce.payment.web.PaymentController;
import dev.payonce.payment.web.PaymentProblems;

/**
 * Resolves the {@link CaptureCommand} of {@code POST /payments/{id}/captures}
 * (docs/design.md section 15) by a refund's rules: a body, when sent, must be JSON, and
 * an empty one must come without a {@code Content-Type} (a dropped body never captures
 * all that remains); then the payment id's spelling, then the body.
 */
@Component
class CaptureCommandArgumentResolver extends CommandArgumentResolver<CaptureCommand> {

	private final CaptureRequestReader reader;

	CaptureCommandArgumentResolver(IdempotencyKeyArgumentResolver keys, CurrentClient currentClient,
			CaptureRequestReader reader) {
		super(CaptureCommand.class, keys, currentClient);
		this.reader = reader;
	}

	@Override
	protected CaptureCommand read(ClientId clientId, IdempotencyKey key, byte[] body, NativeWebRequest request)
			throws HttpMediaTypeNotSupportedException {
		@Nullable String contentType = request.getHeader(HttpHeaders.CONTENT_TYPE);
		if (body.length > 0) {
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
		else if (contentType != null) {
			throw PaymentProblems.invalidRequest(List.of(new FieldError("",
					"a Content-Type was sent with an empty body: send {} to capture all that remains, "
							+ "or send neither a body nor a Content-Type")));
		}
		PaymentId paymentId = PaymentController.parseId(pathVariable(request, "id"));
		return this.reader.read(clientId, key, paymentId, body);
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
