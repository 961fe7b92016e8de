package dev.payonce;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README and the pages under {@code docs/} check themselves: their links and anchors
 * resolve, every class, test and file they name exists, every section of
 * {@code docs/design.md} that code cites exists, {@code docs/configuration.md} lists
 * exactly the {@code payonce.*} settings the application binds with their defaults, and
 * no page carries figures that drift by themselves (dates, issue numbers). Runs from the
 * project's base directory, as Surefire does.
 */
class DocumentationTests {

	private static final Path ROOT = Path.of("").toAbsolutePath();

	private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");

	private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");

	private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*)$");

	private static final Pattern QUALIFIED_NAME = Pattern.compile(
			"^((?:[a-z][a-z0-9]*\\.)*)([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)((?:\\.[A-Za-z][A-Za-z0-9]*)*)(?:\\(\\))?$");

	/**
	 * Names in code spans that are not Payonce's classes: library, JDK and provider
	 * types, and schema or object names of other systems.
	 */
	private static final Set<String> NOT_OURS = Set.of("Accept", "Allow", "ApiConnectionException", "ApplicationName",
			"Authorization", "ConnectException", "Date", "HttpRequest", "JsonNullable", "SocketTimeoutException",
			"Stripe", "StripeClient", "StripeRequest", "Expect", "Host", "HttpURLConnection", "JdbcClient",
			"JpaTransactionManager", "LimitNOFILE", "Location", "NaN", "PaymentIntent", "Persistable",
			"PreparedStatement", "Problem", "RateLimit", "TimeZone", "TimeoutStopSec", "TransactionTemplate",
			"Webhook");

	private static final Path ALERTS = ROOT.resolve("ops/prometheus/payonce-alerts.yml");

	@Test
	void everyRelativeLinkAndAnchorResolves() {
		List<String> broken = new ArrayList<>();
		for (Path page : pages()) {
			for (String target : links(page)) {
				if (target.matches("^[a-z]+:.*")) {
					continue;
				}
				int hash = target.indexOf('#');
				String file = (hash < 0) ? target : target.substring(0, hash);
				String anchor = (hash < 0) ? null : target.substring(hash + 1);
				Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
				if (!Files.exists(resolved)) {
					broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
				}
				else if (anchor != null && resolved.toString().endsWith(".md") && !anchors(resolved).contains(anchor)) {
					broken.add(ROOT.relativize(page) + ": " + target + " (no such anchor)");
				}
			}
		}
		assertThat(broken).isEmpty();
	}

	@Test
	void everyClassTestAndFileAPageNamesExists() {
		Map<String, List<Path>> classes = sourceTypes();
		List<String> missing = new ArrayList<>();
		for (Path page : pages()) {
			for (String span : codeSpans(page)) {
				String problem = checkName(span, classes);
				if (problem != null) {
					missing.add(ROOT.relativize(page) + ": `" + span + "` " + problem);
				}
			}
		}
		assertThat(missing).isEmpty();
	}

	@Test
	void everyCitedDesignSectionExists() {
		String design = read(ROOT.resolve("docs/design.md"));
		Map<String, String> sections = designSections(design);
		Pattern numbered = Pattern
			.compile("design\\.md[})]?,?\\s+sections?\\s+(\\d+)(?:,\\s+(?:steps?\\s+\\d+|\"([^\"]+)\"))?");
		Pattern named = Pattern.compile("design\\.md[})]?,?\\s+\"([^\"]+)\"");
		List<String> dangling = new ArrayList<>();
		for (Path file : citingFiles()) {
			String text = read(file).replaceAll("\\n\\s*(?:\\*|//|#|--)?\\s*", " ");
			Matcher m = numbered.matcher(text);
			while (m.find()) {
				String body = sections.get(m.group(1));
				if (body == null) {
					dangling.add(ROOT.relativize(file) + ": section " + m.group(1));
				}
				else if (m.group(2) != null && !names(body, m.group(2))) {
					dangling.add(ROOT.relativize(file) + ": section " + m.group(1) + ", \"" + m.group(2) + "\"");
				}
			}
			Matcher n = named.matcher(text);
			while (n.find()) {
				if (!names(design, n.group(1))) {
					dangling.add(ROOT.relativize(file) + ": \"" + n.group(1) + "\"");
				}
			}
		}
		assertThat(dangling).isEmpty();
	}

	@Test
	void configurationPageListsExactlyTheBoundSettingsWithTheirDefaults() {
		Map<String, JsonNode> bound = boundSettings();
		Map<String, String> documented = new LinkedHashMap<>();
		Pattern row = Pattern.compile("^\\|\\s*`(payonce\\.[a-z0-9.-]+)`\\s*\\|([^|]*)\\|");
		for (String line : read(ROOT.resolve("docs/configuration.md")).split("\n")) {
			Matcher m = row.matcher(line);
			if (m.find()) {
				documented.putIfAbsent(m.group(1), m.group(2).trim());
			}
		}
		List<String> wrong = new ArrayList<>();
		bound.forEach((name, defaultValue) -> {
			String cell = documented.get(name);
			if (cell == null) {
				wrong.add(name + " is bound but not documented");
			}
			else if (defaultValue != null && !cell.contains("`" + defaultValue.asString() + "`")) {
				wrong.add(name + " is documented with default " + cell + ", bound with `" + defaultValue.asString()
						+ "`");
			}
		});
		documented.keySet()
			.stream()
			.filter((name) -> !bound.containsKey(name))
			.forEach((name) -> wrong.add(name + " is documented but not bound"));
		assertThat(bound).isNotEmpty();
		assertThat(wrong).isEmpty();
	}

	@Test
	void pagesCarryNoDatesIssueNumbersOrMeasuredRunsAndStayShort() {
		Pattern drifting = Pattern
			.compile("\\b20\\d\\d-\\d\\d-\\d\\d\\b|(?i)\\bissues?\\s+#?\\d+|(?i)fresh[- ]user(?:'s)?\\s+(?:run|ci)");
		List<String> found = new ArrayList<>();
		for (Path page : pages()) {
			Matcher m = drifting.matcher(CODE_SPAN.matcher(prose(page)).replaceAll(""));
			while (m.find()) {
				found.add(ROOT.relativize(page) + ": " + m.group());
			}
		}
		assertThat(found).isEmpty();
		assertThat(lines(ROOT.resolve("README.md"))).isLessThanOrEqualTo(200);
		assertThat(lines(ROOT.resolve("docs/design.md"))).isLessThanOrEqualTo(400);
	}

	private static String checkName(String span, Map<String, List<Path>> classes) {
		String token = span.trim();
		if (token.matches("^(?:java|javax|jakarta|com|org)\\..*")) {
			return null;
		}
		for (String base : List.of("dev.payonce.", "io.payonce.client.")) {
			if (token.startsWith(base)) {
				token = token.substring(base.length());
			}
		}
		Matcher m = QUALIFIED_NAME.matcher(token);
		if (m.matches()) {
			String type = m.group(2);
			if (NOT_OURS.contains(type)) {
				return null;
			}
			List<Path> files = classes.get(type);
			if (files == null && type.startsWith("Payonce") && read(ALERTS).contains("alert: " + type)) {
				return null;
			}
			if (files == null) {
				return "names no class of the service or the client library, nor an alert of "
						+ ROOT.relativize(ALERTS);
			}
			String packagePath = m.group(1).replace('.', '/');
			if (!packagePath.isEmpty()
					&& files.stream().noneMatch((file) -> file.toString().replace('\\', '/').contains(packagePath))) {
				return "is not in package " + m.group(1);
			}
			for (String member : m.group(3).split("\\.")) {
				if (!member.isEmpty() && files.stream().noneMatch((file) -> read(file).contains(member))) {
					return "names a member " + member + " that " + type + " does not have";
				}
			}
			return null;
		}
		if (token.matches("^\\.?[A-Za-z0-9_-]+(/[A-Za-z0-9_.-]+)+/?$")) {
			String first = token.substring(0, token.indexOf('/'));
			if (Set.of("src", "docs", "ops", "spec", "bench", "deploy", "scripts", ".ci", "client-library")
				.contains(first) && !Files.exists(ROOT.resolve(token))) {
				return "names no file of the repository";
			}
		}
		return null;
	}

	private static boolean names(String text, String name) {
		String wanted = name.toLowerCase(Locale.ROOT);
		for (String line : text.split("\n")) {
			Matcher heading = HEADING.matcher(line);
			if (heading.matches()
					&& heading.group(2).replaceFirst("^\\d+\\.\\s+", "").toLowerCase(Locale.ROOT).startsWith(wanted)) {
				return true;
			}
			if (line.toLowerCase(Locale.ROOT).contains("**" + wanted)) {
				return true;
			}
		}
		return false;
	}

	private static Map<String, String> designSections(String design) {
		Map<String, String> sections = new HashMap<>();
		Matcher m = Pattern.compile("(?m)^## (\\d+)\\. ").matcher(design);
		List<int[]> starts = new ArrayList<>();
		List<String> numbers = new ArrayList<>();
		while (m.find()) {
			starts.add(new int[] { m.start() });
			numbers.add(m.group(1));
		}
		for (int i = 0; i < numbers.size(); i++) {
			int end = (i + 1 < starts.size()) ? starts.get(i + 1)[0] : design.length();
			sections.put(numbers.get(i), design.substring(starts.get(i)[0], end));
		}
		return sections;
	}

	private static Map<String, JsonNode> boundSettings() {
		Map<String, JsonNode> bound = new HashMap<>();
		try {
			for (URL url : Collections.list(DocumentationTests.class.getClassLoader()
				.getResources("META-INF/spring-configuration-metadata.json"))) {
				JsonNode metadata = JsonMapper.builder().build().readTree(url.openStream());
				for (JsonNode property : metadata.path("properties")) {
					String name = property.path("name").asString();
					if (name.startsWith("payonce.")) {
						bound.put(name, property.has("defaultValue") ? property.get("defaultValue") : null);
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return bound;
	}

	private static Map<String, List<Path>> sourceTypes() {
		Map<String, List<Path>> types = new HashMap<>();
		Pattern declaration = Pattern.compile("\\b(?:class|record|interface|enum)\\s+([A-Z][A-Za-z0-9]*)");
		for (String tree : List.of("src/main/java", "src/test/java", "src/bench/java", "client-library/src/main/java",
				"client-library/src/test/java")) {
			if (!Files.isDirectory(ROOT.resolve(tree))) {
				continue;
			}
			try (Stream<Path> files = Files.walk(ROOT.resolve(tree))) {
				files.filter((file) -> file.toString().endsWith(".java")).forEach((file) -> {
					Matcher m = declaration.matcher(read(file));
					while (m.find()) {
						types.computeIfAbsent(m.group(1), (name) -> new ArrayList<>()).add(file);
					}
				});
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return types;
	}

	private static List<Path> citingFiles() {
		List<Path> files = new ArrayList<>();
		for (String tree : List.of("src", "spec", "ops", "deploy", "bench", "scripts", ".ci", "docs")) {
			Path dir = ROOT.resolve(tree);
			if (!Files.isDirectory(dir)) {
				continue;
			}
			try (Stream<Path> walk = Files.walk(dir)) {
				walk.filter(Files::isRegularFile)
					.filter((file) -> !file.startsWith(ROOT.resolve("bench/results")))
					.filter((file) -> file.toString()
						.matches(".*\\.(java|sql|properties|yml|yaml|pml|sh|md|lua|cfg|ini|json)$|.*/run$"))
					.filter((file) -> !file.endsWith("openapi.json"))
					.forEach(files::add);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		files.add(ROOT.resolve("README.md"));
		return files;
	}

	private static List<Path> pages() {
		List<Path> pages = new ArrayList<>();
		pages.add(ROOT.resolve("README.md"));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((file) -> file.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return pages;
	}

	/** The page without its fenced code blocks. */
	private static String prose(Path page) {
		StringBuilder prose = new StringBuilder();
		boolean fenced = false;
		for (String line : read(page).split("\n")) {
			if (line.trim().startsWith("```")) {
				fenced = !fenced;
			}
			else if (!fenced) {
				prose.append(line).append('\n');
			}
		}
		return prose.toString();
	}

	private static List<String> links(Path page) {
		List<String> links = new ArrayList<>();
		Matcher m = LINK.matcher(CODE_SPAN.matcher(prose(page)).replaceAll(""));
		while (m.find()) {
			links.add(m.group(1));
		}
		return links;
	}

	private static Set<String> codeSpans(Path page) {
		Set<String> spans = new TreeSet<>();
		Matcher m = CODE_SPAN.matcher(prose(page));
		while (m.find()) {
			spans.add(m.group(1));
		}
		return spans;
	}

	/**
	 * GitHub's anchors: lower case, punctuation dropped, spaces as hyphens, repeats
	 * numbered.
	 */
	private static Set<String> anchors(Path page) {
		Set<String> anchors = new TreeSet<>();
		Map<String, Integer> seen = new HashMap<>();
		for (String line : prose(page).split("\n")) {
			Matcher m = HEADING.matcher(line);
			if (m.matches()) {
				String slug = m.group(2)
					.toLowerCase(Locale.ROOT)
					.replaceAll("[^\\p{L}\\p{N} _-]", "")
					.replace(' ', '-');
				int count = seen.merge(slug, 1, Integer::sum);
				anchors.add((count == 1) ? slug : slug + "-" + (count - 1));
			}
		}
		return anchors;
	}

	private static long lines(Path file) {
		return read(file).lines().count();
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
