package dev.payonce.idempotency;

import java.lang.reflect.Modifier;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The switch that breaks the completion fence on purpose
 * ({@link IdempotencyRecords#switchOffCompletionFence}) is out of production's reach: it
 * is package-private, bound to no property, and no class of the application calls it.
 */
class CompletionFenceSwitchTests {

	@Test
	void noApplicationClassCallsTheSwitchAndItIsPackagePrivate() throws Exception {
		JavaClasses application = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("dev.payonce");

		assertThat(application.contain(IdempotencyRecords.class)).isTrue();
		noClasses().should()
			.callMethod(IdempotencyRecords.class, "switchOffCompletionFence")
			.allowEmptyShould(true)
			.check(application);
		int modifiers = IdempotencyRecords.class.getDeclaredMethod("switchOffCompletionFence").getModifiers();
		assertThat(Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers) || Modifier.isPrivate(modifiers))
			.isFalse();
	}

}
