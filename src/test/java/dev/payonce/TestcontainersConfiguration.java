package dev.payonce;

import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.test.context.DynamicPropertyRegistrar;

/**
 * The PostgreSQL every integration test runs on: the database named by
 * {@code PAYONCE_TEST_DATABASE_URL} (with {@code PAYONCE_TEST_DATABASE_USERNAME} and
 * {@code PAYONCE_TEST_DATABASE_PASSWORD}) when it is set, a Testcontainers PostgreSQL
 * otherwise. Never H2: the claim depends on PostgreSQL's {@code ON CONFLICT} semantics.
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestcontainersConfiguration {

	static final String URL = "PAYONCE_TEST_DATABASE_URL";

	@Bean
	@ServiceConnection
	@Conditional(NoExternalDatabase.class)
	PostgreSQLContainer postgresContainer() {
		return new PostgreSQLContainer(DockerImageName.parse("postgres:17.6-alpine"));
	}

	@Bean
	@Conditional(ExternalDatabase.class)
	DynamicPropertyRegistrar externalDatabase() {
		return (registry) -> {
			registry.add("spring.datasource.url", () -> System.getenv(URL));
			registry.add("spring.datasource.username", () -> env("PAYONCE_TEST_DATABASE_USERNAME", "postgres"));
			registry.add("spring.datasource.password", () -> env("PAYONCE_TEST_DATABASE_PASSWORD", ""));
		};
	}

	private static String env(String name, String fallback) {
		String value = System.getenv(name);
		return (value != null) ? value : fallback;
	}

	static boolean external() {
		String url = System.getenv(URL);
		return url != null && !url.isBlank();
	}

	static final class ExternalDatabase implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return external();
		}

	}

	static final class NoExternalDatabase implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return !external();
		}

	}

}
