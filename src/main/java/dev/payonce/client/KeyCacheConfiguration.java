package dev.payonce.client;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The API key cache and its listener (docs/design.md section 12). The listener connects
 * with {@code payonce.security.key-cache.listener-*}, each defaulting to the
 * application's own datasource ({@link JdbcConnectionDetails}:
 * {@code spring.datasource.*}, or a service connection).
 */
@Configuration(proxyBeanMethods = false)
class KeyCacheConfiguration {

	@Bean
	ApiKeyCache apiKeyCache(KeyCacheProperties properties, MeterRegistry meters) {
		return new ApiKeyCache(properties, meters);
	}

	@Bean
	ApiKeyChangeListener apiKeyChangeListener(ApiKeyCache cache, KeyCacheProperties properties,
			JdbcConnectionDetails datasource) {
		return new ApiKeyChangeListener(cache, properties, datasource);
	}

}
