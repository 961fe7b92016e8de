package dev.payonce.idempotency.web;

import java.security.Principal;

import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.KeyDigests;

/**
 * Resolves an {@link IdempotencyKey} handler argument from the {@code Idempotency-Key}
 * header: missing is {@code idempotency-key-missing}, sent twice or malformed is
 * {@code idempotency-key-invalid} (400, before anything is read or claimed). Puts the
 * key's digest, never the key, into the log context.
 */
class IdempotencyKeyArgumentResolver implements HandlerMethodArgumentResolver {

	private final KeyDigests keyDigests;

	IdempotencyKeyArgumentResolver(KeyDigests keyDigests) {
		this.keyDigests = keyDigests;
	}

	@Override
	public boolean supportsParameter(MethodParameter parameter) {
		return IdempotencyKey.class.equals(parameter.getParameterType());
	}

	@Override
	public IdempotencyKey resolveArgument(MethodParameter parameter, @Nullable ModelAndViewContainer container,
			NativeWebRequest request, @Nullable WebDataBinderFactory binderFactory) {
		String[] values = request.getHeaderValues(IdempotencyHeaders.IDEMPOTENCY_KEY);
		if (values == null || values.length == 0) {
			throw IdempotencyProblems.keyMissing();
		}
		if (values.length > 1) {
			throw IdempotencyProblems.keyInvalid("the header was sent more than once");
		}
		IdempotencyKey key;
		try {
			key = IdempotencyKey.fromHeader(values[0]);
		}
		catch (IllegalArgumentException ex) {
			// The message names a rule and a length, never the key itself.
			throw IdempotencyProblems.keyInvalid(String.valueOf(ex.getMessage()));
		}
		// The scope is the authenticated caller (for the APIs, the client id); the digest
		// is keyed, so the same key of two scopes gives unrelated digests.
		Principal caller = request.getUserPrincipal();
		MDC.put("idempotencyKeyDigest", this.keyDigests.digest((caller != null) ? caller.getName() : "", key));
		return key;
	}

}
