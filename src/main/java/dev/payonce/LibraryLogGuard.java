package dev.payonce;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;

/**
 * Keeps credentials, idempotency keys and bodies out of the log whatever levels an
 * operator sets (issue 15, item 3). Below {@code WARN}, libraries print request lines and
 * headers (Tomcat's HTTP/1.1 parser logs a rejected header line, {@code Authorization}
 * value included, at INFO and every received byte at DEBUG), firewall rejections with the
 * header value (Spring Security, DEBUG), request details and bodies (Spring MVC,
 * DEBUG/TRACE) and bind parameters (Spring JDBC, Hibernate and the PostgreSQL driver,
 * TRACE). This turbo filter refuses every event below {@code WARN} from those loggers,
 * before the library even formats it; their {@code WARN} and {@code ERROR} lines, which
 * carry no request data, still pass.
 *
 * <p>
 * Installed right after Spring Boot configures Logback (it runs after
 * {@link LoggingApplicationListener}), so {@code logging.level.*} settings, environment
 * variables and the actuator cannot lift it. With another logging backend it does
 * nothing.
 */
class LibraryLogGuard implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, Ordered {

	/** Loggers that can print a request line, a header, a body or a bind parameter. */
	static final List<String> GUARDED = List.of("org.apache.coyote", "org.apache.tomcat", "org.apache.catalina",
			"org.springframework.web", "org.springframework.security", "org.springframework.http",
			"org.springframework.jdbc.core", "org.hibernate.orm.jdbc.bind", "org.postgresql");

	@Override
	public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
		if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context
				&& context.getTurboFilterList().stream().noneMatch(Filter.class::isInstance)) {
			Filter filter = new Filter();
			filter.setContext(context);
			filter.start();
			context.addTurboFilter(filter);
		}
	}

	@Override
	public int getOrder() {
		return LoggingApplicationListener.DEFAULT_ORDER + 1;
	}

	/**
	 * Whether a logger's event below {@code WARN} is refused.
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

	static final class Filter extends TurboFilter {

		/**
		 * {@link #guarded} per logger name: Logback asks this filter on every level check
		 * ({@code isDebugEnabled()} included), many times per request, and the set of
		 * logger names is fixed by the code.
		 */
		private final Map<String, Boolean> decisions = new ConcurrentHashMap<>();

		@Override
		public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params,
				Throwable t) {
			// Below the logger's own level the event is refused anyway: the common case
			// (a library asking isTraceEnabled()) costs two comparisons.
			if (level != null && level.levelInt < Level.WARN_INT
					&& level.levelInt >= logger.getEffectiveLevel().levelInt
					&& this.decisions.computeIfAbsent(logger.getName(), LibraryLogGuard::guarded)) {
				return FilterReply.DENY;
			}
			return FilterReply.NEUTRAL;
		}

	}

}
