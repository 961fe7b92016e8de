package dev.payonce;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

import dev.payonce.payment.web.PaymentsApi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The alert rules ({@code ops/prometheus/payonce-alerts.yml}) and the Grafana dashboard
 * ({@code ops/grafana/payonce-dashboard.json}) name only series that a real scrape of
 * {@code /actuator/prometheus} holds, and the dashboard shows every {@code payonce_}
 * series. The scrape is the truth rather than a checked-in list, so a renamed or removed
 * meter fails the build instead of leaving an alert that can never fire.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class OperationsMetricsIntegrationTests {

	private static final Path OPS = Path.of("ops");

	private static final Set<String> PROMQL_WORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without",
			"on", "ignoring", "group_left", "group_right", "inf", "nan");

	private static final Pattern IDENTIFIER = Pattern
		.compile("(?<![A-Za-z0-9_:.$])[A-Za-z_:][A-Za-z0-9_:]*(?![A-Za-z0-9_:]|\\s*\\()");

	@LocalServerPort
	int port;

	@Test
	void dashboardAndAlertRulesNameOnlySeriesThatAScrapeHolds() throws Exception {
		Set<String> scraped = scrapedSeries();

		Set<String> dashboard = dashboardSeries();
		Set<String> alerts = alertSeries();

		assertThat(dashboard).isNotEmpty();
		assertThat(alerts).isNotEmpty();
		assertThat(scraped).containsAll(dashboard).containsAll(alerts);
	}

	@Test
	void dashboardShowsEveryPayonceSeries() throws Exception {
		Set<String> payonce = scrapedSeries().stream()
			.filter((name) -> name.startsWith("payonce_"))
			.collect(Collectors.toCollection(TreeSet::new));

		Set<String> dashboard = dashboardSeries();

		assertThat(payonce).isNotEmpty();
		assertThat(dashboard).containsAll(payonce);
	}

	@Test
	void aPaymentIsTimedOnceAsARequestNotPerRepositoryCall() throws Exception {
		Set<String> scraped = scrapedSeries();

		assertThat(scraped).contains("http_server_requests_seconds_count", "payonce_payments_total");
		// Spring Data's per-call repository timers are off (docs/performance.md: their
		// tags and
		// meter
		// lookup on every call cost more than the call's bookkeeping is worth).
		assertThat(scraped).noneMatch((name) -> name.startsWith("spring_data_repository_invocations"));
	}

	@Test
	void seriesInFindsSeriesNamesButNotFunctionsLabelsOrKeywords() {
		String promql = """
				sum by (status) (rate(a_total{uri!~"/x(y)"}[$__rate_interval])) / on (job) group_left
				max_over_time(b_seconds[5m] offset 1h) > bool 0.5 and c unless sum without (d) (e)""";

		Set<String> names = seriesIn(promql);

		assertThat(names).containsExactlyInAnyOrder("a_total", "b_seconds", "c", "e");
	}

	/**
	 * {@code ops/check.sh} (promtool check and unit tests of every alert, and the
	 * dashboard's PromQL) where promtool and jq are installed; CI runs the script itself,
	 * which installs them.
	 */
	@Test
	void opsCheckPassesWherePromtoolIsInstalled() throws Exception {
		assumeTrue(onPath("promtool") && onPath("jq"), "promtool and jq are not installed");

		Process check = new ProcessBuilder("bash", OPS.resolve("check.sh").toString()).redirectErrorStream(true)
			.start();
		String output = new String(check.getInputStream().readAllBytes());
		boolean finished = check.waitFor(60, TimeUnit.SECONDS);

		assertThat(finished).isTrue();
		assertThat(check.exitValue()).as(output).isZero();
		assertThat(output).contains("SUCCESS: " + alertRules().size() + " rules found").doesNotContain("FAILED");
	}

	/** Names of the samples a scrape holds, after one payment and one 404. */
	private Set<String> scrapedSeries() throws IOException, InterruptedException {
		PaymentsApi api = new PaymentsApi(this.port);
		String key = "ops-" + UUID.randomUUID();
		assertThat(api.pay(key, """
				{"orderId":"%s","amount":100,"currency":"ILS"}""".formatted(key)).status()).isEqualTo(201);
		assertThat(api.get("/payments/" + UUID.randomUUID()).status()).isEqualTo(404);
		HttpResponse<String> scrape = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/actuator/prometheus"))
				.header("Authorization", "Bearer " + TestCredentials.ADMIN_TOKEN)
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(scrape.statusCode()).isEqualTo(200);
		return scrape.body()
			.lines()
			.filter((line) -> !line.isBlank() && !line.startsWith("#"))
			.map((line) -> line.split("[{ ]", 2)[0])
			.collect(Collectors.toCollection(TreeSet::new));
	}

	private static Set<String> dashboardSeries() throws IOException {
		JsonNode dashboard = JsonMapper.builder()
			.build()
			.readTree(OPS.resolve("grafana/payonce-dashboard.json").toFile());
		Set<String> names = new TreeSet<>();
		for (JsonNode panel : dashboard.get("panels")) {
			for (JsonNode target : panel.path("targets")) {
				names.addAll(seriesIn(target.get("expr").asString()));
			}
		}
		return names;
	}

	private static Set<String> alertSeries() throws IOException {
		Set<String> names = new TreeSet<>();
		for (Map<String, Object> rule : alertRules()) {
			names.addAll(seriesIn((String) rule.get("expr")));
		}
		return names;
	}

	/** Every rule of every group in the alert rules file, as the YAML parser reads it. */
	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> alertRules() throws IOException {
		try (InputStream file = Files.newInputStream(OPS.resolve("prometheus/payonce-alerts.yml"))) {
			Map<String, Object> rules = new Yaml().load(file);
			List<Map<String, Object>> all = new java.util.ArrayList<>();
			for (Map<String, Object> group : (List<Map<String, Object>>) rules.get("groups")) {
				all.addAll((List<Map<String, Object>>) group.get("rules"));
			}
			return all;
		}
	}

	/**
	 * The series names in a PromQL expression: identifiers left once strings, label
	 * matchers, ranges and grouping clauses are removed, other than functions (followed
	 * by a parenthesis) and keywords.
	 */
	static Set<String> seriesIn(String promql) {
		String bare = promql.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
			.replaceAll("\\{[^}]*}", " ")
			.replaceAll("\\[[^]]*]", " ")
			.replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
		Set<String> names = new TreeSet<>();
		Matcher identifiers = IDENTIFIER.matcher(bare);
		while (identifiers.find()) {
			if (!PROMQL_WORDS.contains(identifiers.group().toLowerCase(Locale.ROOT))) {
				names.add(identifiers.group());
			}
		}
		return names;
	}

	private static boolean onPath(String command) {
		return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
			.anyMatch((directory) -> Files.isExecutable(Path.of(directory, command)));
	}

}
