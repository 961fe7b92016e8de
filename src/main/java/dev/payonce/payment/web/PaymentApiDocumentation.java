package dev.payonce.payment.web;

import java.time.Duration;
import java.util.List;

import org.springdoc.core.customizers.OpenApiCustomizer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.payonce.idempotency.IdempotencyService;

/**
 * The payments API's part of the OpenAPI document's description: the Idempotency-Key
 * contract with the configured retention window. The frame is
 * {@link dev.payonce.web.ApiDocumentation}; the operations are {@link PaymentOperations},
 * and what every operation that moves money shares is added by
 * {@link KeyedOperationDocumentation}.
 */
@Configuration(proxyBeanMethods = false)
class PaymentApiDocumentation {

	/** A duration as its settings are written: {@code 24h}, {@code 90m}, {@code 45s}. */
	static String humanized(Duration duration) {
		if (duration.toSeconds() % 3600 == 0) {
			return duration.toHours() + "h";
		}
		if (duration.toSeconds() % 60 == 0) {
			return duration.toMinutes() + "m";
		}
		return duration.toSeconds() + "s";
	}

	@Bean
	KeyedOperationDocumentation keyedOperationDocumentation(List<CommandArgumentResolver<?>> commands) {
		return new KeyedOperationDocumentation(commands);
	}

	@Bean
	OpenApiCustomizer idempotencyContractDescription(IdempotencyService idempotency) {
		String contract = """


				**Idempotency-Key.** 1-255 visible ASCII characters, bare or as an RFC 8941 string; both spellings \
				name the same key. Keys are scoped to the calling client. The same key with a different request is \
				422; while the first request runs, 409 with Retry-After. Retention: a completed response is \
				replayed for %s after completion (payonce.idempotency.retention); after that the key starts a new \
				payment. Amounts are integer minor units of an ISO 4217 currency."""
			.formatted(humanized(idempotency.retention()));
		return (openApi) -> {
			// The document is built once and cached; never append twice to the same
			// frame.
			if (!openApi.getInfo().getDescription().contains(contract)) {
				openApi.getInfo().setDescription(openApi.getInfo().getDescription() + contract);
			}
		};
	}

}
