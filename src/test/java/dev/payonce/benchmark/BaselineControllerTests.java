package dev.payonce.benchmark;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In the benchmark's jar, the baseline exists only in the {@code bench} profile together
 * with the {@code local} profile or the explicit opt-in, and start-up warns when it does;
 * the production jar does not hold it at all ({@link BaselineEndpointIntegrationTests}).
 */
@ExtendWith(OutputCaptureExtension.class)
class BaselineControllerTests {

	private final ApplicationContextRunner contexts = new ApplicationContextRunner()
		.withUserConfiguration(BaselineController.class);

	@Test
	void benchProfileAloneOpensNothing() {
		this.contexts.withPropertyValues("spring.profiles.active=bench")
			.run((context) -> assertThat(context).doesNotHaveBean(BaselineController.class));
	}

	@Test
	void optInWithoutTheBenchProfileOpensNothing() {
		this.contexts.withPropertyValues("payonce.benchmark.baseline.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean(BaselineController.class));
	}

	@Test
	void benchProfileWithTheOptInOpensItAndWarns(CapturedOutput output) {
		this.contexts.withPropertyValues("spring.profiles.active=bench", "payonce.benchmark.baseline.enabled=true")
			.run((context) -> assertThat(context).hasSingleBean(BaselineController.class));

		assertThat(output.getAll()).contains("WARN", "/bench/baseline is open without authentication");
	}

	@Test
	void benchProfileWithTheLocalProfileOpensIt() {
		this.contexts.withPropertyValues("spring.profiles.active=bench,local")
			.run((context) -> assertThat(context).hasSingleBean(BaselineController.class));
	}

}
