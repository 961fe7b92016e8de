package dev.payonce.ops;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.Charset;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.logging.StackTracePrinter;
import org.springframework.boot.logging.structured.ContextPairs;
import org.springframework.boot.logging.structured.StructuredLogFormatter;
import org.springframework.boot.logging.structured.StructuredLoggingJsonMembersCustomizer;
import org.springframework.core.env.Environment;

/**
 * Spring Boot's own Elastic Common Schema formatter, unchanged, with one difference: a
 * line is encoded from its JSON text ({@link #format}, built in a {@link StringBuilder})
 * instead of through Spring Boot's {@code formatAsBytes}, which in Spring Boot 4.0 writes
 * the JSON one character at a time through an {@code OutputStreamWriter} and allocates a
 * {@code CharBuffer} for every character (spring-projects/spring-boot#49428). That path
 * was 3 to 4 % of a new payment's CPU samples and 16 % of its allocation samples in a JFR
 * profile of the new-payment benchmark (docs/performance.md). The bytes written are the
 * same: the same formatter makes the same text, encoded in the same charset.
 *
 * <p>
 * Named by {@code logging.structured.format.console} in {@code application.properties};
 * Spring Boot instantiates it with the same parameters it gives its own formatter (the
 * {@code logging.structured.*} and {@code logging.structured.ecs.*} settings keep their
 * meaning). Spring Boot's formatter class is package-private, so it is created
 * reflectively; if a Spring Boot upgrade renames it or changes its constructor, logging
 * fails at start-up with that reason (and {@code EcsLogFormatterTests} fails first).
 * Remove this class, and name {@code ecs} again, once the Spring Boot in use writes bytes
 * without the per-character path.
 */
public class EcsLogFormatter implements StructuredLogFormatter<ILoggingEvent> {

	private static final String SPRING_BOOT_FORMATTER = "org.springframework.boot.logging.logback.ElasticCommonSchemaStructuredLogFormatter";

	private final StructuredLogFormatter<ILoggingEvent> ecs;

	/**
	 * Creates Spring Boot's ECS formatter with the given parameters.
	 * @param environment where {@code logging.structured.ecs.service.*} are read
	 * @param stackTracePrinter the configured stack trace printer, if any
	 * @param contextPairs how MDC and key-value pairs are written
	 * @param throwableProxyConverter Logback's stack trace converter
	 * @param customizerBuilder the configured JSON member customizers
	 * @throws IllegalStateException if Spring Boot's formatter cannot be created
	 */
	public EcsLogFormatter(Environment environment, @Nullable StackTracePrinter stackTracePrinter,
			ContextPairs contextPairs, ThrowableProxyConverter throwableProxyConverter,
			StructuredLoggingJsonMembersCustomizer.Builder<?> customizerBuilder) {
		this.ecs = springBootFormatter(environment, stackTracePrinter, contextPairs, throwableProxyConverter,
				customizerBuilder);
	}

	@SuppressWarnings("unchecked")
	private static StructuredLogFormatter<ILoggingEvent> springBootFormatter(Environment environment,
			@Nullable StackTracePrinter stackTracePrinter, ContextPairs contextPairs,
			ThrowableProxyConverter throwableProxyConverter,
			StructuredLoggingJsonMembersCustomizer.Builder<?> customizerBuilder) {
		try {
			Constructor<?> constructor = Class
				.forName(SPRING_BOOT_FORMATTER, true, EcsLogFormatter.class.getClassLoader())
				.getDeclaredConstructor(Environment.class, StackTracePrinter.class, ContextPairs.class,
						ThrowableProxyConverter.class, StructuredLoggingJsonMembersCustomizer.Builder.class);
			constructor.setAccessible(true);
			return (StructuredLogFormatter<ILoggingEvent>) constructor.newInstance(environment, stackTracePrinter,
					contextPairs, throwableProxyConverter, customizerBuilder);
		}
		catch (ClassNotFoundException | NoSuchMethodException | InstantiationException | IllegalAccessException
				| InvocationTargetException | RuntimeException ex) {
			throw new IllegalStateException("Spring Boot's ECS log formatter (" + SPRING_BOOT_FORMATTER
					+ ") could not be created; set logging.structured.format.console=ecs", ex);
		}
	}

	/**
	 * The line as Spring Boot's ECS formatter writes it.
	 * @param event the logging event
	 * @return one JSON object followed by a line break
	 */
	@Override
	public String format(ILoggingEvent event) {
		return this.ecs.format(event);
	}

	/**
	 * The line's bytes: {@link #format} encoded in {@code charset} in one step.
	 * @param event the logging event
	 * @param charset the appender's charset
	 * @return the encoded line
	 */
	@Override
	public byte[] formatAsBytes(ILoggingEvent event, Charset charset) {
		return this.ecs.format(event).getBytes(charset);
	}

}
