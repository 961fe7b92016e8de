package dev.payonce.idempotency.web;

import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

import org.springframework.core.MethodParameter;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.IdempotencyScope;
import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.KeyDigests;

/**
 * Resolves an {@link IdempotencyKey} handler argument from the {@code Idempotency-Key}
 * header, and admits it: missing is {@code idempotency-key-missing}, sent twice or
 * malformed is {@code idempotency-key-invalid} (400), a new key of a scope that holds the
 * most live keys allowed is {@code idempotency-quota-exceeded} (429,
 * {@link IdempotencyService#quotaRefusal}), each before the body is read and before
 * anything is claimed. So no operation's controller can take a key and forget the quota.
 * Puts the key's digest, never the key, into the log context.
 *
 * <p>
 * A request's key is read and admitted once, whichever asks first: the handler's argument
 * or {@link #key(NativeWebRequest)} (a resolver of a command that carries the key).
 * Thread-safe.
 */
@Component
public class IdempotencyKeyArgumentResolver implements HandlerMethodArgumentResolver {

	private static final String RESOLVED = IdempotencyKeyArgumentResolver.class.getName() + ".key";

	private final KeyDigests keyDigests;

	private final IdempotencyService idempotency;

	private final CallerScope callerScope;

	IdempotencyKeyArgumentResolver(KeyDigests keyDigests, IdempotencyService idempotency, CallerScope callerScope) {
		this.keyDigests = keyDigests;
		this.idempotency = idempotency;
		this.callerScope = callerScope;
	}

	@Override
	public boolean supportsParameter(MethodParameter parameter) {
		return IdempotencyKey.class.equals(parameter.getParameterType());
	}

	@Override
	public IdempotencyKey resolveArgument(MethodParameter parameter, @Nullable ModelAndViewContainer container,
			NativeWebRequest request, @Nullable WebDataBinderFactory binderFactory) {
		return key(request);
	}

	/**
	 * The request's idempotency key, read and admitted on the first call of the request,
	 * the same key afterwards.
	 * @param request the request being handled
	 * @return the key
	 * @throws dev.payonce.web.ApiProblem 400 {@code idempotency-key-missing} or
	 * {@code idempotency-key-invalid}; 429 {@code idempotency-quota-exceeded} with
	 * {@code Retry-After}
	 * @throws org.springframework.dao.DataAccessException if the quota's count fails
	 */
	public IdempotencyKey key(NativeWebRequest request) {
		if (request.getAttribute(RESOLVED, RequestAttributes.SCOPE_REQUEST) instanceof IdempotencyKey resolved) {
			return resolved;
		}
		IdempotencyKey key = read(request);
		IdempotencyScope scope = this.callerScope.current();
		// The digest is keyed, so the same key of two scopes gives unrelated digests.
		MDC.put("idempotencyKeyDigest", this.keyDigests.digest(scope.value(), key));
		this.idempotency.quotaRefusal(scope, key).ifPresent((retryAfter) -> {
			throw IdempotencyProblems.quotaExceeded(retryAfter);
		});
		request.setAttribute(RESOLVED, key, RequestAttributes.SCOPE_REQUEST);
		return key;
	}

	private static IdempotencyKey read(NativeWebRequest request) {
		String[] values = request.getHeaderValues(IdempotencyHeaders.IDEMPOTENCY_KEY);
		if (values == null || values.length == 0) {
			throw IdempotencyProblems.keyMissing();
		}
		if (values.length > 1) {
			throw IdempotencyProblems.keyInvalid("the header was sent more than once");
		}
		try {
			return IdempotencyKey.fromHeader(values[0]);
		}
		catch (IllegalArgumentException ex) {
			// The message names a rule and a length, never the key itself.
			throw IdempotencyProblems.keyInvalid(String.valueOf(ex.getMessage()));
		}
	}

}
