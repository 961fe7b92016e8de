package dev.payonce.payment.web;

import java.time.Duration;
import java.util.List;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.payonce.idempotency.IdempotencyProperties;
import dev.payonce.web.WebProperties;

/**
 * The OpenAPI 3.1 document's frame (served at {@code /v3/api-docs}): the title, the
 * idempotency contract with the configured retention window, and the bearer scheme. The
 * operations document themselves on {@link PaymentController}.
 */
@Configuration(proxyBeanMethods = false)
class PaymentApiDocumentation {

	static final String BEARER = "bearer";

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
	OpenAPI payonceOpenApi(IdempotencyProperties idempotency, WebProperties web) {
		String retention = humanized(idempotency.retention());
		return new OpenAPI().info(new Info().title("Payonce").version("1").description("""
				The payments API that cannot charge twice. Every POST /payments carries an Idempotency-Key \
				(1-255 visible ASCII characters, bare or as an RFC 8941 string). The first request with a key \
				is executed once; every retry with the same key and the same request gets the stored response \
				byte for byte, marked Idempotent-Replayed: true. Keys are scoped to the calling client. \
				Retention: a completed response is replayed for %s after completion \
				(payonce.idempotency.retention); after that the key starts a new payment. Amounts are integer \
				minor units of an ISO 4217 currency. Every error is an RFC 9457 problem \
				(application/problem+json) whose type ends in a stable slug.""".formatted(retention)))
			// A fixed server URL: springdoc would otherwise echo the request's Host
			// header.
			.servers(List.of(new Server().url(web.publicUrl())))
			.components(new Components().addSecuritySchemes(BEARER,
					new SecurityScheme().type(SecurityScheme.Type.HTTP)
						.scheme("bearer")
						.bearerFormat("API key: sk_live_ or sk_test_ plus 43 base64url characters")
						.description("A client's API key; the admin API takes the admin token instead.")));
	}

}
