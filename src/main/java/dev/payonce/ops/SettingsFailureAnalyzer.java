package dev.payonce.ops;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns Payonce's start-up refusals (an {@link IllegalStateException} whose message names
 * a {@code payonce.*} or {@code spring.datasource.*} setting, such as a lease too short
 * for the provider's worst-case call, a missing admin token or a pool with auto-commit
 * off) into Spring Boot's short "APPLICATION FAILED TO START" report instead of a stack
 * trace.
 */
class SettingsFailureAnalyzer extends AbstractFailureAnalyzer<IllegalStateException> {

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, IllegalStateException cause) {
		String message = cause.getMessage();
		if (message == null || !(message.startsWith("payonce.") || message.startsWith("spring.datasource."))) {
			return null;
		}
		String action = message.startsWith("payonce.")
				? "Change the setting named above (docs/configuration.md), for example as an environment variable "
						+ "such as PAYONCE_SECURITY_ADMIN_TOKEN or a --payonce.* argument."
				: "Change or remove the setting named above (docs/configuration.md).";
		return new FailureAnalysis(message, action, cause);
	}

}
