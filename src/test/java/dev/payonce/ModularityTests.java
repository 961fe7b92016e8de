package dev.payonce;

import org.junit.jupiter.api.Test;

import org.springframework.modulith.core.ApplicationModule;
import org.springframework.modulith.core.ApplicationModules;

import static org.assertj.core.api.Assertions.assertThat;

class ModularityTests {

	private final ApplicationModules modules = ApplicationModules.of(PayonceApplication.class);

	@Test
	void modulesOnlyUseEachOthersApiAndHaveNoCycles() {
		this.modules.verify();
	}

	@Test
	void idempotencyEngineDependsOnNeitherPaymentsNorClients() {
		ApplicationModule idempotency = this.modules.getModuleByName("idempotency").orElseThrow();
		ApplicationModule payment = this.modules.getModuleByName("payment").orElseThrow();
		ApplicationModule client = this.modules.getModuleByName("client").orElseThrow();

		assertThat(idempotency.getDirectDependencies(this.modules).contains(payment)).isFalse();
		assertThat(idempotency.getDirectDependencies(this.modules).contains(client)).isFalse();
		assertThat(idempotency.getBootstrapDependencies(this.modules)).doesNotContain(payment, client);
	}

	@Test
	void nothingDependsOnGatewayAdapters() {
		ApplicationModule gateway = this.modules.getModuleByName("gateway").orElseThrow();

		assertThat(
				this.modules.stream().filter((module) -> module.getDirectDependencies(this.modules).contains(gateway)))
			.isEmpty();
	}

}
