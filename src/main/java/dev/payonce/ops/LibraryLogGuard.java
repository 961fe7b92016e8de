package dev.payonce.ops;

import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggerContextListener;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;

/**
 * Keeps credentials, idempotency keys and bodies out of the log whatever levels an
 * operator sets, {@code logging.level.root=TRACE} included. Below {@code WARN}, libraries
 * print request lines and headers (Tomcat's HTTP/1.1 parser logs a rejected header line,
 * {@code Authorization} value included, at INFO and every received byte at DEBUG),
 * firewall rejections with the header value (Spring Security, DEBUG), request details and
 * bodies (Spring MVC, DEBUG/TRACE), bind parameters (Spring JDBC, Hibernate and the
 * PostgreSQL driver, TRACE), extracted values and validated requests (Hibernate ORM and
 * Validator, TRACE) and the JDBC URL, which may carry a password (Hibernate's start-up
 * INFO line); the JDK's HTTP client logs stripe-java's request headers, the provider's
 * secret key among them (DEBUG). Each of those loggers ({@link #GUARDED}) is held at
 * {@code WARN} or above: its level is set to {@code WARN} when the guard is installed,
 * and any later change that would lower it or one of its descendants below {@code WARN}
 * ({@code logging.level.*} settings, environment variables, the actuator, a Logback
 * reconfiguration) is put back to {@code WARN} at once by a Logback
 * {@link LoggerContextListener}. Their {@code WARN} and {@code ERROR} lines, which carry
 * no request data, still pass.
 *
 * <p>
 * Levels instead of a turbo filter (docs/performance.md): Logback asks every turbo filter
 * on every level check, {@code isTraceEnabled()} included, hundreds of times per request
 * (4 % of a new payment's CPU samples); a level costs nothing beyond Logback's own
 * comparison.
 *
 * <p>
 * Installed right after Spring Boot configures Logback (it runs after
 * {@link LoggingApplicationListener}). With another logging backend it does nothing.
 */
class LibraryLogGuard implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, Ordered {

	/**
	 * Loggers that can print a request line, a header, a body or a bind parameter: the
	 * server side (Tomcat, Spring MVC, Spring Security), the database side (Spring JDBC,
	 * Hibernate, the PostgreSQL driver), and every HTTP client that can carry the
	 * provider's secret key ({@code Authorization: Bearer sk_...}) or a webhook body: the
	 * JDK's {@code HttpURLConnection}, which stripe-java uses and which logs each
	 * request's headers at DEBUG ({@code FINE}, through the System.Logger/JUL bridge),
	 * the JDK's {@code java.net.http} client, stripe-java itself, Spring's
	 * {@code RestClient}/{@code RestTemplate} (under {@code org.springframework.web}),
	 * and the Apache and OkHttp clients should a library bring one.
	 */
	static final List<String> GUARDED = List.of("org.apache.coyote", "org.apache.tomcat", "org.apache.catalina",
			"org.springframework.web", "org.springframework.security", "org.springframework.http",
			"org.springframework.jdbc.core", "org.hibernate", "org.postgresql", "sun.net.www",
			"jdk.internal.httpclient", "jdk.httpclient", "java.net.http", "com.stripe", "org.apache.hc",
			"org.apache.http", "okhttp3");

	@Override
	public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
		if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
			install(context);
		}
	}

	/**
	 * Holds the guarded loggers of {@code context} at {@code WARN} or above from now on;
	 * installing twice changes nothing.
	 * @param context the Logback context
	 */
	static void install(LoggerContext context) {
		if (context.getCopyOfListenerList().stream().noneMatch(Listener.class::isInstance)) {
			Listener listener = new Listener();
			listener.setContext(context);
			context.addListener(listener);
		}
		clampAll(context);
	}

	@Override
	public int getOrder() {
		return LoggingApplicationListener.DEFAULT_ORDER + 1;
	}

	/**
	 * Whether a logger is held at {@code WARN} or above.
	 * @param loggerName the logger
	 * @return {@code true} if it is one of {@link #GUARDED} or below one
	 */
	static boolean guarded(String loggerName) {
		for (String prefix : GUARDED) {
			if (loggerName.startsWith(prefix)
					&& (loggerName.length() == prefix.length() || loggerName.charAt(prefix.length()) == '.')) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Sets each guarded logger below {@code WARN} (or without a level of its own, for the
	 * {@link #GUARDED} roots) to {@code WARN}; a guarded descendant with a level of its
	 * own below {@code WARN} too.
	 */
	private static void clampAll(LoggerContext context) {
		for (String name : GUARDED) {
			clamp(context.getLogger(name), context.getLogger(name).getLevel());
		}
		for (Logger logger : context.getLoggerList()) {
			if (logger.getLevel() != null && guarded(logger.getName())) {
				clamp(logger, logger.getLevel());
			}
		}
	}

	/**
	 * Raises {@code logger} to {@code WARN} if {@code level} is lower, or if it is
	 * {@code null} on one of the {@link #GUARDED} roots (which would then inherit an
	 * unguarded ancestor's level). Setting the level notifies the listener again, with
	 * {@code WARN}, which changes nothing.
	 */
	static void clamp(Logger logger, @Nullable Level level) {
		if ((level == null) ? GUARDED.contains(logger.getName()) : level.levelInt < Level.WARN_INT) {
			logger.setLevel(Level.WARN);
		}
	}

	/**
	 * Puts a guarded logger back to {@code WARN} whenever its level is set lower, and
	 * every guarded logger after Logback resets its configuration (it survives the
	 * reset).
	 */
	static final class Listener extends ContextAwareBase implements LoggerContextListener {

		@Override
		public boolean isResetResistant() {
			return true;
		}

		@Override
		public void onStart(LoggerContext context) {
		}

		@Override
		public void onReset(LoggerContext context) {
			clampAll(context);
		}

		@Override
		public void onStop(LoggerContext context) {
		}

		@Override
		public void onLevelChange(Logger logger, @Nullable Level level) {
			if (guarded(logger.getName())) {
				clamp(logger, level);
			}
		}

	}

}
