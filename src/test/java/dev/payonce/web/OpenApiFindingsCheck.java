package dev.payonce.web;

import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test after which {@link OpenApiExchanges} recorded a finding, even one thrown
 * in a worker thread whose error the test did not look at. Registered for every test by
 * JUnit's extension auto-detection ({@code junit-platform.properties}).
 */
public class OpenApiFindingsCheck implements AfterEachCallback {

	@Override
	public void afterEach(ExtensionContext context) {
		List<String> findings = OpenApiExchanges.drainFindings();
		if (!findings.isEmpty()) {
			throw new AssertionError("The OpenAPI document does not describe " + findings.size()
					+ " exchange(s) of this test:\n" + String.join("\n", findings));
		}
	}

}
