package dev.payonce.ops;

import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guard holds every guarded library logger at {@code WARN} or above however its level
 * is changed after installation, and leaves every other logger alone. A Logback context
 * of its own per test, so the application's logging is untouched.
 */
class LibraryLogGuardTests {

	LoggerContext context;

	@BeforeEach
	void install() {
		this.context = new LoggerContext();
		this.context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.INFO);
		// Set before the guard is installed, as logging.level.* settings are.
		this.context.getLogger("org.postgresql.core").setLevel(Level.TRACE);
		LibraryLogGuard.install(this.context);
	}

	@Test
	void guardedLoggersStartAtWarnEvenWhenConfiguredLowerBefore() {
		for (String name : LibraryLogGuard.GUARDED) {
			assertThat(this.context.getLogger(name).getEffectiveLevel()).as(name).isEqualTo(Level.WARN);
		}
		assertThat(this.context.getLogger("org.postgresql.core.v3.QueryExecutorImpl").isTraceEnabled()).isFalse();
		assertThat(this.context.getLogger("org.postgresql.core").getLevel()).isEqualTo(Level.WARN);
	}

	@Test
	void loweringAGuardedLoggerOrItsDescendantLaterIsPutBackToWarn() {
		this.context.getLogger("org.apache.coyote.http11").setLevel(Level.DEBUG);
		this.context.getLogger("org.springframework.web").setLevel(Level.TRACE);
		this.context.getLogger("org.postgresql").setLevel(null);

		assertThat(this.context.getLogger("org.apache.coyote.http11.Http11InputBuffer").isDebugEnabled()).isFalse();
		assertThat(this.context.getLogger("org.apache.coyote.http11").getLevel()).isEqualTo(Level.WARN);
		assertThat(this.context.getLogger("org.springframework.web.servlet.DispatcherServlet").isDebugEnabled())
			.isFalse();
		assertThat(this.context.getLogger("org.postgresql").getLevel()).isEqualTo(Level.WARN);
	}

	@Test
	void lowerAncestorsAndTheRootDoNotReachGuardedLoggers() {
		this.context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.TRACE);
		this.context.getLogger("org.springframework").setLevel(Level.TRACE);

		assertThat(this.context.getLogger("org.springframework.security.web.FilterChainProxy").isInfoEnabled())
			.isFalse();
		assertThat(this.context.getLogger("org.springframework.jdbc.core.JdbcTemplate").isDebugEnabled()).isFalse();
		assertThat(this.context.getLogger("org.springframework.jdbc.core.JdbcTemplate").isEnabledFor(Level.WARN))
			.isTrue();
		// Loggers outside the guarded ones keep whatever level they are given.
		assertThat(this.context.getLogger("org.springframework.jdbc.datasource.DataSourceUtils").isTraceEnabled())
			.isTrue();
		assertThat(this.context.getLogger("dev.payonce.payment.PaymentService").isTraceEnabled()).isTrue();
		assertThat(this.context.getLogger("org.postgresqlx").isTraceEnabled()).isTrue();
	}

	@Test
	void httpClientsThatCarryTheProviderSecretStayAtWarnUnderARootAtTrace() {
		this.context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.TRACE);
		this.context.getLogger("sun.net.www.protocol.http").setLevel(Level.DEBUG);

		for (String name : List.of("sun.net.www.protocol.http.HttpURLConnection", "sun.net.www.MessageHeader",
				"jdk.internal.httpclient.debug", "jdk.httpclient.HttpClient", "java.net.http.HttpClient",
				"com.stripe.net.HttpURLConnectionClient", "org.apache.hc.client5.http.headers", "org.apache.http.wire",
				"okhttp3.OkHttpClient", "org.springframework.web.client.RestClient")) {
			assertThat(this.context.getLogger(name).isDebugEnabled()).as(name).isFalse();
			assertThat(this.context.getLogger(name).isEnabledFor(Level.WARN)).as(name).isTrue();
		}
	}

	@Test
	void higherLevelsAreKept() {
		this.context.getLogger("org.hibernate.orm.jdbc.bind").setLevel(Level.ERROR);
		this.context.getLogger("org.apache.catalina").setLevel(Level.OFF);

		assertThat(this.context.getLogger("org.hibernate.orm.jdbc.bind").getLevel()).isEqualTo(Level.ERROR);
		assertThat(this.context.getLogger("org.apache.catalina").getLevel()).isEqualTo(Level.OFF);
	}

	@Test
	void survivesAReconfigurationAndInstallsOnce() {
		this.context.reset();
		this.context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.DEBUG);
		this.context.getLogger("org.apache.tomcat.util.net").setLevel(Level.ALL);
		LibraryLogGuard.install(this.context);

		assertThat(this.context.getLogger("org.apache.tomcat").getLevel()).isEqualTo(Level.WARN);
		assertThat(this.context.getLogger("org.apache.tomcat.util.net").getLevel()).isEqualTo(Level.WARN);
		assertThat(this.context.getLogger("org.postgresql.jdbc.PgConnection").isDebugEnabled()).isFalse();
		assertThat(this.context.getCopyOfListenerList()).hasSize(1);
	}

	@Test
	void guardedMatchesWholeNameSegmentsOnly() {
		assertThat(LibraryLogGuard.guarded("org.postgresql")).isTrue();
		assertThat(LibraryLogGuard.guarded("org.postgresql.Driver")).isTrue();
		assertThat(LibraryLogGuard.guarded("org.postgresqlx.Driver")).isFalse();
		assertThat(LibraryLogGuard.guarded("org.springframework.jdbc.datasource")).isFalse();
	}

}
