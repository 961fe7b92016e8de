package dev.payonce.ops;

import java.io.PrintStream;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalysisReporter;

/**
 * Prints a start-up refusal (a missing admin token, timings the lease guard refuses) as
 * plain text on standard error when console logs are structured JSON, where Spring Boot's
 * own report is one escaped string inside a JSON log event that a person reading the
 * console cannot read. With plain-text logs Spring Boot's report is already readable and
 * this prints nothing.
 */
class ConsoleFailureAnalysisReporter implements FailureAnalysisReporter {

	/**
	 * Set by Spring Boot's logging system from {@code logging.structured.format.console}.
	 */
	static final String STRUCTURED_FORMAT = "CONSOLE_LOG_STRUCTURED_FORMAT";

	private final PrintStream out;

	ConsoleFailureAnalysisReporter() {
		this(System.err);
	}

	ConsoleFailureAnalysisReporter(PrintStream out) {
		this.out = out;
	}

	@Override
	public void report(FailureAnalysis analysis) {
		String format = System.getProperty(STRUCTURED_FORMAT);
		if (format == null || format.isBlank()) {
			return;
		}
		this.out.println();
		this.out.println("APPLICATION FAILED TO START");
		this.out.println();
		this.out.println("Description:");
		this.out.println(analysis.getDescription());
		if (analysis.getAction() != null) {
			this.out.println();
			this.out.println("Action:");
			this.out.println(analysis.getAction());
		}
		this.out.println();
		this.out.flush();
	}

}
