package dev.payonce.client;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The API key cache and its listener (docs/design.md section 12). The listener connects
 * with {@code payonce.security.key-cache.listener-*}, each defaulting to the
 * application's own datasource ({@link JdbcConnectionDetails}:
 * {@code spring.datasource.*}, or a service connection); its probes go through the
 * application's {@link DataSource}, which proves it listens to that database.
 */
@Configuration(proxyBeanMethods = false)
class KeyCacheConfiguration {

	@Bean
	ApiKeyCache apiKeyCache(KeyCacheProperties properties, MeterRegistry meters) {
		return new ApiKeyCache(properties, meters);
	}

	@Bean
	ApiKeyChangeListener apiKeyChangeListener(ApiKeyCache cache, KeyCacheProperties properties,
			JdbcConnectionDetails datasource, DataSource pool) {
		return new ApiKeyChangeListener(cache, properties, datasource, pool);
	}

}
