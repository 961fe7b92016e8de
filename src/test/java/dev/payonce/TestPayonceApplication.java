package dev.payonce;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Payonce for development, started by {@code ./mvnw spring-boot:test-run}: the real
 * application, plus an {@link EmbeddedDatabase embedded PostgreSQL} whenever no
 * {@code spring.datasource.url} ({@code SPRING_DATASOURCE_URL}) is configured. It lives
 * under {@code src/test}, so the packaged jar carries no embedded database.
 *
 * <p>
 * The embedded server keeps its data in {@value #DATA_DIRECTORY} under the working
 * directory (the checkout), so payments and clients survive restarts; deleting that
 * folder while Payonce is stopped resets it. The chosen source is logged at start-up.
 */
public final class TestPayonceApplication {

	static final String DATA_DIRECTORY = ".payonce/postgres";

	private TestPayonceApplication() {
	}

	/**
	 * Where this run reads its configuration: Spring Boot's default locations without
	 * {@code classpath:/config/}, which here holds the tests' overrides
	 * ({@code src/test/resources/config/application.properties}: small pools, retention
	 * off, a test admin token) because {@code spring-boot:test-run} puts the test
	 * resources on the classpath.
	 */
	static final String CONFIG_LOCATIONS = "optional:classpath:/;optional:file:./;optional:file:./config/";

	public static void main(String[] args) {
		if (System.getProperty("spring.config.location") == null) {
			System.setProperty("spring.config.location", CONFIG_LOCATIONS);
		}
		SpringApplication.from(PayonceApplication::main).with(LocalDatabase.class).run(args);
	}

	/** The embedded PostgreSQL, only where no datasource URL is configured. */
	@TestConfiguration(proxyBeanMethods = false)
	static class LocalDatabase {

		private static final Log logger = LogFactory.getLog(LocalDatabase.class);

		@Bean(destroyMethod = "close")
		@Conditional(NoDatasourceUrl.class)
		EmbeddedPostgres localPostgres() {
			EmbeddedPostgres postgres = EmbeddedDatabase.persistent(Path.of(DATA_DIRECTORY), "payonce");
			logger.info("PostgreSQL: embedded, on localhost:" + postgres.getPort() + ", data in " + DATA_DIRECTORY
					+ " (stop Payonce and delete that folder to reset); set SPRING_DATASOURCE_URL to use another server");
			return postgres;
		}

		@Bean
		@Conditional(NoDatasourceUrl.class)
		JdbcConnectionDetails localDatabase(EmbeddedPostgres localPostgres) {
			return EmbeddedDatabase.connectionDetails(localPostgres.getPort(), "payonce");
		}

	}

	static final class NoDatasourceUrl implements Condition {

		private static final Log logger = LogFactory.getLog(NoDatasourceUrl.class);

		private static final AtomicBoolean logged = new AtomicBoolean();

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			String url = context.getEnvironment().getProperty("spring.datasource.url");
			if (url == null || url.isBlank()) {
				return true;
			}
			if (!logged.getAndSet(true)) {
				logger.info("PostgreSQL: spring.datasource.url " + withoutParameters(url) + " (no embedded server)");
			}
			return false;
		}

		private static String withoutParameters(String url) {
			int query = url.indexOf('?');
			return (query < 0) ? url : url.substring(0, query);
		}

	}

}
