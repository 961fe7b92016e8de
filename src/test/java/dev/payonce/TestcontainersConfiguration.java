package dev.payonce;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.test.context.DynamicPropertyRegistrar;

/**
 * The PostgreSQL every integration test runs on, the first of:
 * <ol>
 * <li>the database named by {@code PAYONCE_TEST_DATABASE_URL} (with
 * {@code PAYONCE_TEST_DATABASE_USERNAME}, default {@code postgres}, and
 * {@code PAYONCE_TEST_DATABASE_PASSWORD}) when it is set;</li>
 * <li>a Testcontainers PostgreSQL (pinned major) when a Docker engine answers;</li>
 * <li>otherwise an {@link EmbeddedDatabase} started from Maven artifacts, one per test
 * JVM.</li>
 * </ol>
 * Never H2: the claim depends on PostgreSQL's {@code ON CONFLICT} semantics. The name is
 * kept from when Testcontainers was the only source; every integration test imports it.
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestcontainersConfiguration {

	static final String URL = "PAYONCE_TEST_DATABASE_URL";

	private static final Log logger = LogFactory.getLog(TestcontainersConfiguration.class);

	private static final String IMAGE = "postgres:17.6-alpine";

	private static final Source SOURCE = chooseSource();

	private static @Nullable JdbcConnectionDetails shared;

	@Bean
	@ServiceConnection
	@Conditional(DockerDatabase.class)
	PostgreSQLContainer postgresContainer() {
		return new PostgreSQLContainer(DockerImageName.parse(IMAGE));
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

	@Bean
	@Conditional(EmbeddedDatabaseSource.class)
	JdbcConnectionDetails embeddedDatabase() {
		return EmbeddedDatabase.forTests();
	}

	/**
	 * The tests' database as plain connection details, for a test that puts something
	 * between the application and PostgreSQL (a proxy it cuts) instead of importing this
	 * configuration. With Docker it is one container for the whole test JVM, apart from
	 * the containers of the application contexts.
	 * @return the external server, the shared container or the embedded server
	 */
	public static JdbcConnectionDetails database() {
		return switch (SOURCE) {
			case EXTERNAL -> new Connection(System.getenv(URL), env("PAYONCE_TEST_DATABASE_USERNAME", "postgres"),
					env("PAYONCE_TEST_DATABASE_PASSWORD", ""));
			case DOCKER -> sharedContainer();
			case EMBEDDED -> EmbeddedDatabase.forTests();
		};
	}

	private static synchronized JdbcConnectionDetails sharedContainer() {
		if (shared == null) {
			PostgreSQLContainer container = new PostgreSQLContainer(DockerImageName.parse(IMAGE));
			container.start();
			shared = new Connection(container.getJdbcUrl(), container.getUsername(), container.getPassword());
		}
		return shared;
	}

	private static String env(String name, String fallback) {
		String value = System.getenv(name);
		return (value != null) ? value : fallback;
	}

	private static Source chooseSource() {
		String url = System.getenv(URL);
		Source source;
		if (url != null && !url.isBlank()) {
			source = Source.EXTERNAL;
		}
		else if (dockerAnswers()) {
			source = Source.DOCKER;
		}
		else {
			source = Source.EMBEDDED;
		}
		logger.info("Test PostgreSQL: " + source.description);
		return source;
	}

	/**
	 * Asks Testcontainers only where a Docker engine could be: without one, its probe
	 * logs errors that would bury the test output.
	 */
	private static boolean dockerAnswers() {
		Path home = Path.of(System.getProperty("user.home"));
		boolean configured = System.getenv("DOCKER_HOST") != null || Files.exists(Path.of("/var/run/docker.sock"))
				|| Files.exists(home.resolve(".docker/run/docker.sock"))
				|| Files.exists(home.resolve(".testcontainers.properties"));
		return configured && DockerClientFactory.instance().isDockerAvailable();
	}

	private record Connection(String url, String username, String password) implements JdbcConnectionDetails {

		@Override
		public String getJdbcUrl() {
			return this.url;
		}

		@Override
		public String getUsername() {
			return this.username;
		}

		@Override
		public String getPassword() {
			return this.password;
		}

	}

	enum Source {

		EXTERNAL("the external server named by " + URL), DOCKER("Testcontainers (Docker)"),
		EMBEDDED("embedded PostgreSQL (no " + URL + ", no Docker)");

		private final String description;

		Source(String description) {
			this.description = description;
		}

	}

	static final class ExternalDatabase implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return SOURCE == Source.EXTERNAL;
		}

	}

	static final class DockerDatabase implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return SOURCE == Source.DOCKER;
		}

	}

	static final class EmbeddedDatabaseSource implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return SOURCE == Source.EMBEDDED;
		}

	}

}
