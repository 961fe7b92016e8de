package dev.payonce.ops;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Properties;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.LoggingEvent;
import org.junit.jupiter.api.Test;

import org.springframework.boot.logging.logback.ColorConverter;
import org.springframework.boot.logging.logback.ExtendedWhitespaceThrowableProxyConverter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code local} profile's plain-text log format (docs/design.md section 2,
 * "Request-Id"): each line names its request, and a message never breaks into two lines.
 */
class LocalLogFormatTests {

	@Test
	void writesAMessageWithCarriageReturnsAndLineFeedsOnOneLine() throws IOException {
		LoggingEvent event = event("name [x\r\n2026-12-02 INFO forged] and\nmore", Map.of());

		String line = layout().doLayout(event);

		assertThat(line).endsWith("name [x<CR><LF>2026-12-02 INFO forged] and<LF>more" + System.lineSeparator());
		assertThat(line.strip()).doesNotContain("\r").doesNotContain("\n");
	}

	@Test
	void namesTheRequestOfEveryLine() throws IOException {
		LoggingEvent event = event("Payment completed", Map.of("requestId", "req_3hM0cJb5Qd2lV9xTzK7wAa"));

		String line = layout().doLayout(event);

		assertThat(line).contains("[req_3hM0cJb5Qd2lV9xTzK7wAa]").contains("Payment completed");
	}

	private static LoggingEvent event(String message, Map<String, String> mdc) {
		LoggerContext context = new LoggerContext();
		LoggingEvent event = new LoggingEvent("test", context.getLogger("dev.payonce.Test"), Level.INFO, message, null,
				null);
		event.setMDCPropertyMap(mdc);
		return event;
	}

	private static PatternLayout layout() throws IOException {
		Properties local = new Properties();
		try (InputStream in = LocalLogFormatTests.class.getResourceAsStream("/application-local.properties")) {
			local.load(in);
		}
		PatternLayout layout = new PatternLayout();
		layout.setContext(new LoggerContext());
		layout.getInstanceConverterMap().put("clr", ColorConverter::new);
		layout.getInstanceConverterMap().put("wEx", ExtendedWhitespaceThrowableProxyConverter::new);
		layout.setPattern(local.getProperty("logging.pattern.console"));
		layout.start();
		return layout;
	}

}
