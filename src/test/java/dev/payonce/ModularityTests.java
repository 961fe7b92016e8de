package dev.payonce;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import org.junit.jupiter.api.Test;

import org.springframework.modulith.core.ApplicationModule;
import org.springframework.modulith.core.ApplicationModules;

import dev.payonce.web.ApiProblem;
import dev.payonce.web.Problems;
import dev.payonce.web.edge.BodySizeFilter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The module rules (docs/modules.md): the engine and the provider kernel know no
 * operation, the engine's API is the types docs/modules.md lists, operations depend on
 * each other in one direction only (refund and capture on payment, webhook on payment,
 * refund and capture), the adapters know only the provider port (and the problem
 * rendering of {@code web}), and nothing depends on an adapter.
 */
class ModularityTests {

	private static final List<String> OPERATIONS = List.of("payment", "refund", "capture", "webhook");

	private final ApplicationModules modules = ApplicationModules.of(PayonceApplication.class);

	@Test
	void modulesOnlyUseEachOthersApiAndHaveNoCycles() {
		this.modules.verify();
	}

	@Test
	void providerDependsOnNoOperation() {
		assertThat(dependencies("provider")).doesNotContainAnyElementsOf(OPERATIONS);
	}

	@Test
	void paymentDependsOnNeitherRefundNorCaptureNorWebhook() {
		assertThat(dependencies("payment")).doesNotContain("refund", "capture", "webhook");
	}

	@Test
	void operationsDependOnEachOtherOnlyRefundAndCaptureOnPaymentAndWebhookOnPaymentRefundAndCapture() {
		assertThat(operationDependencies("payment")).isEmpty();
		assertThat(operationDependencies("refund")).containsExactly("payment");
		assertThat(operationDependencies("capture")).containsExactly("payment");
		assertThat(operationDependencies("webhook")).containsExactlyInAnyOrder("payment", "refund", "capture");
	}

	@Test
	void merchantEventsDependOnNoOperation() {
		assertThat(dependencies("event")).doesNotContainAnyElementsOf(OPERATIONS).doesNotContain("provider");
	}

	@Test
	void idempotencyEngineDependsOnNoModuleButTheProblemTypeOfWeb() {
		assertThat(dependencies("idempotency")).containsOnly("web");
		assertThat(typesUsedOutside("idempotency")).containsOnly(ApiProblem.class.getName());
	}

	@Test
	void gatewayAdaptersDependOnProviderAndTheProblemRenderingOfWebOnly() {
		assertThat(dependencies("gateway")).containsOnly("provider", "web");
		// The webhook endpoint answers with the one problem factory, under the body
		// limit every endpoint shares (a constant, which the compiler may inline).
		assertThat(typesUsedOutside("gateway").stream().filter((type) -> !type.startsWith("dev.payonce.provider.")))
			.isSubsetOf(ApiProblem.class.getName(), Problems.class.getName(), BodySizeFilter.class.getName());
	}

	@Test
	void idempotencyEngineOffersOnlyItsApiTypes() {
		Set<String> publicTypes = module("idempotency").getBasePackage()
			.stream()
			.filter((type) -> type.getPackageName().equals("dev.payonce.idempotency"))
			.filter((type) -> type.isTopLevelClass() && type.getModifiers().contains(JavaModifier.PUBLIC))
			.map(JavaClass::getSimpleName)
			.collect(Collectors.toSet());

		assertThat(publicTypes).containsExactlyInAnyOrder("IdempotencyService", "IdempotentOperation", "ResourceTable",
				"ReconciliationStep", "ClaimGuard", "IdempotencyReconciler", "ReconciliationProperties", "KeyDigests",
				"IdempotencyKey", "IdempotencyScope", "RequestFingerprint", "ClaimRequest", "Lease", "StoredResponse");
	}

	@Test
	void nothingDependsOnGatewayAdapters() {
		ApplicationModule gateway = module("gateway");

		assertThat(this.modules.stream()
			.filter((module) -> module.getDirectDependencies(this.modules).contains(gateway))
			.map(ApplicationModule::getName)).isEmpty();
	}

	/** The names of the modules {@code name} depends on directly or at bootstrap. */
	private Set<String> dependencies(String name) {
		ApplicationModule module = module(name);
		Set<String> names = this.modules.stream()
			.filter((other) -> module.getDirectDependencies(this.modules).contains(other))
			.map(ApplicationModule::getName)
			.collect(Collectors.toSet());
		module.getBootstrapDependencies(this.modules).forEach((other) -> names.add(other.getName()));
		return names;
	}

	/** The names of the types of ours outside module {@code name} that it uses. */
	private Set<String> typesUsedOutside(String name) {
		String base = module(name).getBasePackage().getName();
		return module(name).getBasePackage()
			.stream()
			.flatMap((type) -> type.getDirectDependenciesFromSelf().stream())
			.map(Dependency::getTargetClass)
			.map(JavaClass::getBaseComponentType)
			.filter((target) -> target.getPackageName().startsWith("dev.payonce.")
					&& !target.getPackageName().startsWith(base))
			.map(JavaClass::getName)
			.collect(Collectors.toSet());
	}

	private List<String> operationDependencies(String name) {
		return dependencies(name).stream().filter(OPERATIONS::contains).sorted().toList();
	}

	private ApplicationModule module(String name) {
		return this.modules.getModuleByName(name).orElseThrow();
	}

}
