package dev.payonce.ops;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MarkerFactory;
import org.slf4j.event.KeyValuePair;

import org.springframework.boot.logging.logback.StructuredLogEncoder;
import org.springframework.core.env.Environment;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link EcsLogFormatter} writes exactly the bytes Spring Boot's {@code ecs} format
 * writes, for the events Payonce logs and for the awkward ones (escapes, characters
 * outside Latin-1 and the BMP, exceptions, markers, key-value pairs), in UTF-8 and in a
 * charset that cannot encode every character. Both encoders are started the way Spring
 * Boot starts them, from a Logback context holding the Spring environment.
 */
class EcsLogFormatterTests {

	MockEnvironment environment;

	LoggerContext context;

	@BeforeEach
	void context() {
		this.environment = new MockEnvironment().withProperty("spring.application.name", "payonce")
			.withProperty("logging.structured.ecs.service.version", "1.2.3");
		this.context = new LoggerContext();
		this.context.putObject(Environment.class.getName(), this.environment);
	}

	@Test
	void writesTheSameBytesAsSpringBootsEcsFormatForAnAuditLine() {
		LoggingEvent event = event(
				Map.of("clientId", "client-1", "paymentId", "pay_01J9", "idempotencyKeyDigest", "0123456789abcdef"),
				"Payment {} completed: {} ({})", "pay_01J9", "SUCCEEDED", 201);

		assertSameBytes(event, StandardCharsets.UTF_8);
	}

	@Test
	void writesTheSameBytesForEscapesNonLatinTextExceptionsMarkersAndKeyValuePairs() {
		LoggingEvent event = new LoggingEvent("test", this.context.getLogger("dev.payonce.payment.PaymentService"),
				Level.WARN, "quote \" backslash \\ tab \t newline \n nul \u0000 ü € 😀 \ud800 lone",
				new IllegalStateException("broken \"state\" ü", new RuntimeException("cause")), null);
		event.setTimeStamp(1_764_600_000_123L);
		event.setThreadName("tomcat-handler-7");
		event.addMarker(MarkerFactory.getMarker("AUDIT"));
		event.addKeyValuePair(new KeyValuePair("amount", 1999L));
		event.addKeyValuePair(new KeyValuePair("currency", "EUR"));
		event.setMDCPropertyMap(Map.of("clientId", "clïent 😀"));

		assertSameBytes(event, StandardCharsets.UTF_8);
		assertSameBytes(event, StandardCharsets.ISO_8859_1);
		assertSameBytes(event, StandardCharsets.UTF_16);
	}

	@Test
	void linesAreOneJsonObjectEndingInALineBreak() {
		String line = new String(encoder(EcsLogFormatter.class.getName(), StandardCharsets.UTF_8)
			.encode(event(Map.of(), "Payment {} completed", "pay_1")), StandardCharsets.UTF_8);

		assertThat(line).startsWith("{").endsWith("}\n").contains("\"message\":\"Payment pay_1 completed\"");
		assertThat(line.strip()).doesNotContain("\n");
	}

	private void assertSameBytes(LoggingEvent event, Charset charset) {
		byte[] springBoot = encoder("ecs", charset).encode(event);
		byte[] payonce = encoder(EcsLogFormatter.class.getName(), charset).encode(event);

		assertThat(payonce).as(charset.name()).isEqualTo(springBoot);
		assertThat(new String(payonce, charset)).contains("\"ecs\":{\"version\":").contains("\"service\":{");
	}

	private StructuredLogEncoder encoder(String format, Charset charset) {
		StructuredLogEncoder encoder = new StructuredLogEncoder();
		encoder.setContext(this.context);
		encoder.setFormat(format);
		encoder.setCharset(charset);
		encoder.start();
		return encoder;
	}

	private LoggingEvent event(Map<String, String> mdc, String message, Object... arguments) {
		LoggingEvent event = new LoggingEvent("test", this.context.getLogger("dev.payonce.payment.PaymentService"),
				Level.INFO, message, null, arguments);
		event.setMDCPropertyMap(mdc);
		event.setTimeStamp(1_764_600_000_123L);
		event.setThreadName("tomcat-handler-7");
		return event;
	}

}
