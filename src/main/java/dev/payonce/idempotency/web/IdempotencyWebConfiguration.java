package dev.payonce.idempotency.web;

import java.util.List;

import org.springframework.context.annotation.Configuration;

import dev.payonce.idempotency.KeyDigests;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Lets any controller take an {@link dev.payonce.idempotency.IdempotencyKey} argument.
 */
@Configuration(proxyBeanMethods = false)
class IdempotencyWebConfiguration implements WebMvcConfigurer {

	private final KeyDigests keyDigests;

	IdempotencyWebConfiguration(KeyDigests keyDigests) {
		this.keyDigests = keyDigests;
	}

	@Override
	public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
		resolvers.add(new IdempotencyKeyArgumentResolver(this.keyDigests));
	}

}
