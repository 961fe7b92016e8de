package dev.payonce.idempotency.web;

import java.util.List;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Lets any controller take an {@link dev.payonce.idempotency.IdempotencyKey} argument.
 */
@Configuration(proxyBeanMethods = false)
class IdempotencyWebConfiguration implements WebMvcConfigurer {

	private final IdempotencyKeyArgumentResolver keys;

	IdempotencyWebConfiguration(IdempotencyKeyArgumentResolver keys) {
		this.keys = keys;
	}

	@Override
	public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
		resolvers.add(this.keys);
	}

}
