package dev.payonce;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

import org.springframework.test.context.BootstrapUtils;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Runs the test classes that share an application context one after the other: classes
 * are grouped by their {@link MergedContextConfiguration} (the key of Spring's context
 * cache), groups in the order of their first class by name, classes by name within a
 * group; classes without a Spring context of their own come last.
 *
 * <p>
 * The context cache holds at most four contexts (the connection budget of
 * {@code docs/testing.md}, "The connection budget"): in name order, classes of one
 * configuration are spread among others, and the shared one was closed and started again
 * several times a run. In this order each configuration starts once, and no class comes
 * back to a cached context after another context started: a context's start sets the
 * JVM's logging (format, levels) for every context, which the tests of log lines notice.
 * A class whose {@code @Nested} classes have contexts of their own (another profile, for
 * example) has none itself, so it comes last. The order is set by
 * {@code junit.jupiter.testclass.order.default} in {@code junit-platform.properties}.
 */
public class ContextGroupingClassOrderer implements ClassOrderer {

	@Override
	public void orderClasses(ClassOrdererContext context) {
		List<? extends ClassDescriptor> classes = new ArrayList<>(context.getClassDescriptors());
		classes.sort(Comparator.comparing((ClassDescriptor descriptor) -> descriptor.getTestClass().getName()));
		Map<Object, List<ClassDescriptor>> groups = new LinkedHashMap<>();
		for (ClassDescriptor descriptor : classes) {
			groups.computeIfAbsent(contextOf(descriptor.getTestClass()), (key) -> new ArrayList<>()).add(descriptor);
		}
		List<ClassDescriptor> ordered = new ArrayList<>();
		groups.forEach((key, group) -> {
			if (key != NoContext.KEY) {
				ordered.addAll(group);
			}
		});
		ordered.addAll(groups.getOrDefault(NoContext.KEY, List.of()));
		context.getClassDescriptors().sort(Comparator.comparingInt(ordered::indexOf));
	}

	private static Object contextOf(Class<?> testClass) {
		try {
			MergedContextConfiguration configuration = BootstrapUtils.resolveTestContextBootstrapper(testClass)
				.buildMergedContextConfiguration();
			boolean none = configuration.getClasses().length == 0 && configuration.getLocations().length == 0;
			return none ? NoContext.KEY : configuration;
		}
		catch (RuntimeException ex) {
			// Whatever fails here fails again, and is reported, when the class runs.
			return Objects.requireNonNull(testClass.getName());
		}
	}

	private enum NoContext {

		KEY

	}

}
