package dev.payonce.payment.web;

import java.io.IOException;
import java.io.InputStream;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

import dev.payonce.client.ClientId;
import dev.payonce.client.CurrentClient;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.web.IdempotencyKeyArgumentResolver;
import dev.payonce.web.edge.BodySizeFilter;

/**
 * Resolves the validated command of an operation that moves money (a payment, a refund)
 * from its request: the idempotency key, read and admitted once per request (its quota
 * included) by {@link IdempotencyKeyArgumentResolver}, then the body, at most 16 KiB,
 * read by the operation's strict reader. The API key's mode was checked before either
 * ({@link KeyModeCheck}). So every such handler takes {@code (IdempotencyKey, command)}
 * and reads no stream itself, and the checks run in one order for every operation: key
 * mode, key, quota, body (docs/design.md section 2: nothing is claimed before all pass).
 *
 * @param <C> the command type
 */
public abstract class CommandArgumentResolver<C> implements HandlerMethodArgumentResolver {

	/** The largest request body accepted, in bytes (16 KiB). */
	static final int MAX_BODY_BYTES = BodySizeFilter.MAX_BODY_BYTES;

	private final Class<C> type;

	private final IdempotencyKeyArgumentResolver keys;

	private final CurrentClient currentClient;

	/**
	 * A resolver of one command type.
	 * @param type the command type it resolves
	 * @param keys the request's idempotency key
	 * @param currentClient the calling client
	 */
	protected CommandArgumentResolver(Class<C> type, IdempotencyKeyArgumentResolver keys, CurrentClient currentClient) {
		this.type = type;
		this.keys = keys;
		this.currentClient = currentClient;
	}

	@Override
	public boolean supportsParameter(MethodParameter parameter) {
		return this.type.equals(parameter.getParameterType());
	}

	@Override
	public C resolveArgument(MethodParameter parameter, @Nullable ModelAndViewContainer container,
			NativeWebRequest request, @Nullable WebDataBinderFactory binderFactory) throws Exception {
		IdempotencyKey key = this.keys.key(request);
		HttpServletRequest servletRequest = request.getNativeRequest(HttpServletRequest.class);
		if (servletRequest == null) {
			throw new IllegalStateException("Not a servlet request");
		}
		return read(this.currentClient.clientId(), key, readLimited(servletRequest.getInputStream()), request);
	}

	/**
	 * Reads the command from a body within the size limit.
	 * @param clientId the calling client
	 * @param key the request's admitted idempotency key
	 * @param body the raw body, at most 16 KiB, possibly empty
	 * @param request the request, for its headers and path
	 * @return the validated command
	 * @throws Exception if the request is refused (an {@link dev.payonce.web.ApiProblem}
	 * or a Spring MVC exception the problem advice renders)
	 */
	protected abstract C read(ClientId clientId, IdempotencyKey key, byte[] body, NativeWebRequest request)
			throws Exception;

	/**
	 * Reads a request body of at most 16 KiB ({@link BodySizeFilter#MAX_BODY_BYTES}).
	 * @throws dev.payonce.web.ApiProblem 413 {@code payload-too-large} for a longer body
	 */
	static byte[] readLimited(InputStream body) throws IOException {
		byte[] bytes = body.readNBytes(MAX_BODY_BYTES + 1);
		if (bytes.length > MAX_BODY_BYTES) {
			throw PaymentProblems.payloadTooLarge(MAX_BODY_BYTES);
		}
		return bytes;
	}

}
