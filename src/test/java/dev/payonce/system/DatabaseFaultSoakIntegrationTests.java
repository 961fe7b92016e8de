package dev.payonce.system;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.payonce.OwnedPostgres;
import dev.payonce.history.Anomaly;
import dev.payonce.history.History;
import dev.payonce.history.HistoryChecker;
import dev.payonce.history.KeyRecords;
import dev.payonce.history.SimulatorLedger;
import dev.payonce.idempotency.IdempotencyReconciler;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import dev.payonce.payment.web.PaymentsApi;

/**
 * The database goes away and comes back (docs/design.md section 11): the fault soak of
 * {@link FaultSoakIntegrationTests} (every simulator fault on, many keys, clients that
 * retry on {@code 409} and {@code 503} after the {@code Retry-After} they were given)
 * while the database itself fails, on a PostgreSQL server this class owns
 * ({@link OwnedPostgres}).
 * <ul>
 * <li>PostgreSQL is stopped (fast shutdown) a third of the way through the load, kept
 * down until every client thread has been answered {@code 503} and health has said
 * {@code DOWN}, then started again on the same port and data; the same Payonce process
 * carries on.</li>
 * <li>A separate thread terminates a random backend of Payonce's
 * ({@code application_name = 'payonce'}) every 50-250 ms, and a trigger on the test
 * database terminates the first completion of every tenth key, whichever attempt makes
 * it: after the claim committed and the provider charged, before the answer.</li>
 * </ul>
 * Either way: every answer is a {@code 201}, {@code 402}, {@code 409} or {@code 503}
 * problem (never a {@code 500}), no {@code 503 service-unavailable} takes longer than
 * {@link #OUTAGE_WAIT} (plus {@link #SLACK} for the shared machine), and afterwards every
 * key has resolved with exactly one payment and one provider charge, and no record is
 * left past its lease once the reconciler has run.
 *
 * <p>
 * The default suite runs {@value #REDUCED_KEYS} keys per scenario; with
 * {@code PAYONCE_DB_SOAK=true}, {@value #FULL_KEYS} keys (each sent twice), as the
 * README's test section names.
 */
@Tag("system")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "payonce.gateway.simulator.latency=2ms", "payonce.gateway.simulator.refuse.rate=0.10",
				"payonce.gateway.simulator.error-before-charge.rate=0.10",
				"payonce.gateway.simulator.timeout-after-charge.rate=0.15", "payonce.gateway.simulator.timeout=2s",
				"payonce.reconciliation.lease-margin=1s", "payonce.idempotency.lease=4s",
				"payonce.reconciliation.give-up-after=10m", "payonce.reconciliation.interval=200ms",
				"payonce.reconciliation.stale-after=1s", "payonce.reconciliation.enabled=true",
				"payonce.idempotency.cleanup.enabled=false", "spring.datasource.hikari.maximum-pool-size=10" })
@ExtendWith(OutputCaptureExtension.class)
// Its own database server: the context must not outlive the class.
@DirtiesContext
class DatabaseFaultSoakIntegrationTests {

	static final int FULL_KEYS = 2_000;

	static final int REDUCED_KEYS = 40;

	static final boolean FULL = "true".equalsIgnoreCase(System.getenv("PAYONCE_DB_SOAK"));

	static final int KEYS = FULL ? FULL_KEYS : REDUCED_KEYS;

	/**
	 * The random terminations' pause, in ms, drawn from this range: each one costs about
	 * one request a {@code 503} and its client a one-second {@code Retry-After}, so the
	 * reduced run terminates less often.
	 */
	static final long[] KILL_PAUSE = FULL ? new long[] { 50, 250 } : new long[] { 250, 750 };

	static final int REQUESTS_PER_KEY = 2;

	static final int THREADS = 16;

	/**
	 * Every tenth key's first completion is terminated by the trigger, once per key, so
	 * the count of terminated completions is known before the run.
	 */
	static final int COMMIT_KILL_EVERY = 10;

	/** {@code spring.datasource.hikari.connection-timeout} (application.properties). */
	static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(2);

	/** {@code spring.datasource.hikari.validation-timeout} (application.properties). */
	static final Duration VALIDATION_TIMEOUT = Duration.ofSeconds(1);

	/**
	 * The longest a request waits for the database while it is away (docs/design.md, "The
	 * database goes away"): the first database step that fails ends the request, except
	 * the simulator's ledger write, whose failure is the provider's unknown outcome and
	 * is followed by the release; so two connection waits, each of which a validation
	 * that started just before its end can overrun.
	 */
	static final Duration OUTAGE_WAIT = CONNECTION_TIMEOUT.plus(VALIDATION_TIMEOUT).multipliedBy(2);

	/**
	 * Time to answer beyond the waits, including the request's own work before the outage
	 * met it: 16 clients, Payonce and PostgreSQL share two cores with other builds in
	 * this test, where a plain {@code 201} has been seen to take 10 s at a load average
	 * of 40.
	 */
	static final Duration SLACK = Duration.ofSeconds(10);

	/**
	 * The clients' own timeout: a request that took longer would have failed the soak as
	 * a hang.
	 */
	static final Duration HANG = Duration.ofSeconds(30);

	static final String SERVICE_UNAVAILABLE = "https://payonce.dev/problems/service-unavailable";

	static final OwnedPostgres postgres = OwnedPostgres.start("db-soak");

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	IdempotencyReconciler reconciler;

	@Autowired
	HikariDataSource dataSource;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		// No ApplicationName in the URL: Payonce's own setting names its sessions.
		registry.add("spring.datasource.url", () -> "jdbc:postgresql://localhost:" + postgres.port() + "/postgres");
		registry.add("spring.datasource.username", () -> "postgres");
		registry.add("spring.datasource.password", () -> "");
	}

	@AfterAll
	static void stopServer() throws IOException {
		postgres.close();
	}

	@Test
	void aRestartOfPostgresqlMidSoakAnswers503QuicklyAndEveryKeyResolvesOnce(CapturedOutput output) throws Exception {
		Soak soak = new Soak("restart", 0);
		CountDownLatch third = soak.progressLatch(KEYS * REQUESTS_PER_KEY / 3);
		Health health = new Health(this.port);
		CompletableFuture<List<String>> load = CompletableFuture.supplyAsync(soak::drive);

		third.await(5, TimeUnit.MINUTES);
		long stopped = System.nanoTime();
		postgres.stop();
		await().atMost(Duration.ofMinutes(1))
			.until(() -> soak.serviceUnavailableSince(stopped) >= THREADS && health.sawSince(stopped, 503));
		long down = System.nanoTime() - stopped;
		System.out.printf("DB soak: stopped at +%d ms, starting again at +%d ms%n",
				Duration.ofNanos(stopped - soak.began).toMillis(),
				Duration.ofNanos(System.nanoTime() - soak.began).toMillis());
		postgres.startAgain();
		long restarted = System.nanoTime();
		await().atMost(Duration.ofMinutes(1)).until(() -> health.sawSince(restarted, 200));
		List<String> unfinished = load.get(10, TimeUnit.MINUTES);
		health.stop();

		assertThat(unfinished).isEmpty();
		Figures figures = settle(soak, output);
		assertThat(soak.serviceUnavailableSince(stopped)).isGreaterThanOrEqualTo(THREADS);
		assertThat(this.dataSource.getHikariPoolMXBean().getTotalConnections())
			.as("the same pool serves again after the restart")
			.isPositive();
		figures.print("PostgreSQL restart (fast shutdown, down " + Duration.ofNanos(down).toMillis() + " ms)");
	}

	@Test
	void terminatedBackendsMidSoakAnswer503QuicklyAndEveryKeyResolvesOnce(CapturedOutput output) throws Exception {
		Soak soak = new Soak("terminate", COMMIT_KILL_EVERY);
		installCommitKillTrigger(soak.commitKillKeys());
		AtomicBoolean killing = new AtomicBoolean(true);
		AtomicLong terminated = new AtomicLong();
		CompletableFuture<Void> killer = CompletableFuture.runAsync(() -> terminateRandomBackends(killing, terminated));

		List<String> unfinished;
		try {
			unfinished = soak.drive();
		}
		finally {
			killing.set(false);
			killer.get(1, TimeUnit.MINUTES);
		}

		assertThat(unfinished).isEmpty();
		long commitKills = commitKills();
		assertThat(commitKills).as("completions terminated between the claim's commit and the answer")
			.isEqualTo(soak.commitKillKeys().size());
		assertThat(terminated.get()).as("backends terminated at random").isPositive();
		assertThat(soak.replies("service-unavailable")).as("terminations answered 503 service-unavailable")
			.isPositive();
		Figures figures = settle(soak, output);
		figures.print(
				"pg_terminate_backend (" + terminated.get() + " random, " + commitKills + " after a claim's commit)");
	}

	/**
	 * The checks both scenarios share, after the load: the reconciler runs, then every
	 * key's answers, the payments, the ledger and the records are compared.
	 */
	private Figures settle(Soak soak, CapturedOutput output) {
		// The pool may still hold a connection terminated moments ago: a run that meets
		// one fails like any request would, and the next run gets a fresh connection.
		await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> this.reconciler.reconcile() != null);
		String keys = soak.run + "-%";
		String orders = "order-" + soak.run + "-%";
		assertThat(soak.exchanges).allSatisfy((exchange) -> {
			assertThat(exchange.status()).as("never a 500").isIn(201, 402, 409, 503);
			if (exchange.status() == 503 || exchange.status() == 409) {
				assertThat(exchange.retryAfter()).isTrue();
			}
		});
		long resolved = 0;
		for (SoakKey key : soak.keys) {
			List<Reply> answers = soak.finals.get(key.key());
			assertThat(answers).hasSize(REQUESTS_PER_KEY);
			assertThat(answers).allSatisfy((reply) -> {
				assertThat(reply.status()).isEqualTo(key.declines() ? 402 : 201);
				assertThat(reply.body()).isEqualTo(answers.get(0).body());
			});
			resolved++;
		}
		long duplicates = count("""
				SELECT count(*) FROM (SELECT c.provider_idempotency_key FROM simulated_provider_charges c
				  JOIN payments p ON c.provider_idempotency_key = 'payonce-payment-' || p.id
				  WHERE p.order_id LIKE ? GROUP BY c.provider_idempotency_key HAVING count(*) > 1) duplicates""",
				orders);
		long paymentsPerOrder = count("""
				SELECT count(*) FROM (SELECT order_id FROM payments WHERE order_id LIKE ?
				  GROUP BY order_id HAVING count(*) > 1) twice""", orders);
		long mismatched = count(
				"""
						SELECT count(*) FROM payments p
						LEFT JOIN simulated_provider_charges c ON c.provider_idempotency_key = 'payonce-payment-' || p.id
						WHERE p.order_id LIKE ?
						  AND (c.provider_reference IS NULL OR p.status <> c.outcome OR p.provider_reference <> c.provider_reference)""",
				orders);
		long payments = count("SELECT count(*) FROM payments WHERE order_id LIKE ?", orders);
		long lost = (KEYS - resolved) + (KEYS - payments) + mismatched;
		long stuck = count("""
				SELECT count(*) FROM idempotency_records
				WHERE idempotency_key LIKE ? AND status = 'IN_PROGRESS' AND locked_until <= now()""", keys);
		long inProgress = count("""
				SELECT count(*) FROM idempotency_records WHERE idempotency_key LIKE ? AND status = 'IN_PROGRESS'""",
				keys);
		assertThat(duplicates).as("provider idempotency keys charged more than once").isZero();
		assertThat(paymentsPerOrder).as("orders with more than one payment").isZero();
		assertThat(mismatched).as("payments without exactly their ledger charge").isZero();
		assertThat(payments).as("one payment per key").isEqualTo(KEYS);
		assertThat(stuck).as("records past their lease").isZero();
		assertThat(inProgress).as("records still in progress").isZero();
		Exchange longest = soak.exchanges.stream().max(Comparator.comparingLong(Exchange::nanos)).orElseThrow();
		Exchange longestServiceUnavailable = soak.exchanges.stream()
			.filter(Exchange::serviceUnavailable)
			.max(Comparator.comparingLong(Exchange::nanos))
			.orElseThrow();
		soak.exchanges.stream()
			.sorted(Comparator.comparingLong(Exchange::nanos).reversed())
			.limit(5)
			.forEach((exchange) -> System.out.printf("DB soak slowest: %d ms from +%d ms, %d %s%n",
					Duration.ofNanos(exchange.nanos()).toMillis(),
					Duration.ofNanos(exchange.started() - soak.began).toMillis(), exchange.status(), exchange.type()));
		assertThat(Duration.ofNanos(longestServiceUnavailable.nanos())).as("longest 503 service-unavailable")
			.isLessThan(OUTAGE_WAIT.plus(SLACK));
		assertThat(Duration.ofNanos(longest.nanos())).as("longest request").isLessThan(HANG);
		assertThat(output.getAll()).as("a database outage is no bug").doesNotContain("\"level\":\"ERROR\"");
		List<Anomaly> anomalies = HistoryChecker.report("database fault soak " + soak.run, soak.history,
				new KeyRecords(this.jdbc).outcomes(new SimulatorLedger(this.jdbc), keys));
		assertThat(anomalies).as("anomalies of the clients' history against the ledger and the database").isEmpty();
		return new Figures(soak, duplicates, lost, stuck, longest, longestServiceUnavailable, anomalies.size());
	}

	/**
	 * A statement-level fault on the test database: the first completion of each key in
	 * {@code keys} terminates its own backend, whichever attempt makes it (a takeover's,
	 * the reconciler's, or the first). The claim has committed and the provider has
	 * charged; the record stays IN_PROGRESS under its lease, and a later completion goes
	 * through. Sequences, which a rollback does not undo, say whether a key's completion
	 * was terminated already (one per key, made before the load) and count the hits.
	 */
	private void installCommitKillTrigger(List<String> keys) throws SQLException {
		try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE SEQUENCE IF NOT EXISTS payonce_test_commit_kills");
			try (PreparedStatement name = connection.prepareStatement("SELECT 'payonce_test_commit_kill_' || md5(?)")) {
				for (String key : keys) {
					name.setString(1, key);
					try (ResultSet rows = name.executeQuery()) {
						rows.next();
						statement.execute("CREATE SEQUENCE " + rows.getString(1));
					}
				}
			}
			statement.execute("""
					CREATE OR REPLACE FUNCTION payonce_test_commit_kill() RETURNS trigger LANGUAGE plpgsql AS $$
					BEGIN
					  IF nextval(('payonce_test_commit_kill_' || md5(NEW.idempotency_key))::regclass) > 1 THEN
					    RETURN NEW;
					  END IF;
					  PERFORM nextval('payonce_test_commit_kills');
					  PERFORM pg_terminate_backend(pg_backend_pid());
					  -- The termination lands at the next interrupt check, before the commit.
					  PERFORM pg_sleep(5);
					  RETURN NEW;
					END $$""");
			statement.execute("DROP TRIGGER IF EXISTS payonce_test_commit_kill ON idempotency_records");
			statement.execute("""
					CREATE TRIGGER payonce_test_commit_kill BEFORE UPDATE ON idempotency_records FOR EACH ROW
					WHEN (OLD.status = 'IN_PROGRESS' AND NEW.status = 'COMPLETED'
					      AND NEW.idempotency_key LIKE '%-commit-kill')
					EXECUTE FUNCTION payonce_test_commit_kill()""");
		}
	}

	private long commitKills() throws SQLException {
		try (Connection connection = postgres.connect();
				Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery(
						"SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM payonce_test_commit_kills")) {
			rows.next();
			return rows.getLong(1);
		}
	}

	/**
	 * Every 50-250 ms ({@link #KILL_PAUSE}), terminates one random backend of Payonce's;
	 * the pacing is the fault's schedule, not an ordering of events.
	 */
	private static void terminateRandomBackends(AtomicBoolean killing, AtomicLong terminated) {
		try (Connection connection = postgres.connect(); PreparedStatement kill = connection.prepareStatement("""
				SELECT pg_terminate_backend(pid) FROM pg_stat_activity
				WHERE application_name = 'payonce' ORDER BY random() LIMIT 1""")) {
			while (killing.get()) {
				try (ResultSet rows = kill.executeQuery()) {
					if (rows.next() && rows.getBoolean(1)) {
						terminated.incrementAndGet();
					}
				}
				Thread.sleep(ThreadLocalRandom.current().nextLong(KILL_PAUSE[0], KILL_PAUSE[1]));
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private long count(String sql, String pattern) {
		return this.jdbc.sql(sql).param(pattern).query(Long.class).single();
	}

	/** One scenario's load: the keys, every exchange, and each key's final answers. */
	final class Soak {

		final String run;

		final long began = System.nanoTime();

		final List<SoakKey> keys = new ArrayList<>();

		final ConcurrentLinkedQueue<Exchange> exchanges = new ConcurrentLinkedQueue<>();

		final Map<String, List<Reply>> finals = new ConcurrentHashMap<>();

		/** Every exchange as the client saw it, for {@link HistoryChecker}. */
		final History history = new History();

		private final AtomicLong finished = new AtomicLong();

		private volatile CountDownLatch progress = new CountDownLatch(0);

		private volatile long progressAt = Long.MAX_VALUE;

		Soak(String name, int commitKillEvery) {
			this.run = name + "-" + UUID.randomUUID();
			for (int i = 0; i < KEYS; i++) {
				String suffix = (commitKillEvery > 0 && i % commitKillEvery == 1) ? "-commit-kill" : "";
				this.keys
					.add(new SoakKey(this.run + "-" + i + suffix, "order-" + this.run + "-" + i, 100 + i, i % 5 == 0));
			}
		}

		/** The keys whose first completion the commit-kill trigger terminates. */
		List<String> commitKillKeys() {
			return this.keys.stream().map(SoakKey::key).filter((key) -> key.endsWith("-commit-kill")).toList();
		}

		/** A latch released once {@code logicalRequests} have a final answer. */
		CountDownLatch progressLatch(long logicalRequests) {
			this.progress = new CountDownLatch(1);
			this.progressAt = logicalRequests;
			return this.progress;
		}

		long serviceUnavailableSince(long nanos) {
			return this.exchanges.stream()
				.filter((exchange) -> exchange.started() >= nanos && exchange.serviceUnavailable())
				.count();
		}

		long replies(String slug) {
			return this.exchanges.stream().filter((exchange) -> exchange.type().endsWith("/" + slug)).count();
		}

		/**
		 * Sends every key {@value #REQUESTS_PER_KEY} times from {@value #THREADS} threads
		 * released together; each request is retried after its {@code Retry-After} on
		 * {@code 409} and {@code 503} until its answer is final.
		 * @return the keys left without a final answer
		 */
		List<String> drive() {
			PaymentsApi api = new PaymentsApi(DatabaseFaultSoakIntegrationTests.this.port);
			// The client's first exchange loads the OpenAPI document it checks every
			// exchange against: not a request to time.
			api.get("/payments/" + UUID.randomUUID());
			List<SoakKey> requests = new ArrayList<>();
			this.keys.forEach((key) -> requests.addAll(Collections.nCopies(REQUESTS_PER_KEY, key)));
			Collections.shuffle(requests, new Random(42));
			ConcurrentLinkedQueue<SoakKey> queue = new ConcurrentLinkedQueue<>(requests);
			List<String> unfinished = Collections.synchronizedList(new ArrayList<>());
			CountDownLatch go = new CountDownLatch(1);
			ExecutorService threads = Executors.newFixedThreadPool(THREADS);
			try {
				List<Future<?>> workers = new ArrayList<>();
				for (int t = 0; t < THREADS; t++) {
					workers.add(threads.submit(() -> {
						go.await();
						for (SoakKey key = queue.poll(); key != null; key = queue.poll()) {
							Optional<Reply> reply = sendUntilFinal(api, key);
							if (reply.isEmpty()) {
								unfinished.add(key.key());
								continue;
							}
							this.finals
								.computeIfAbsent(key.key(), (k) -> Collections.synchronizedList(new ArrayList<>()))
								.add(reply.get());
							if (this.finished.incrementAndGet() >= this.progressAt) {
								this.progress.countDown();
							}
						}
						return null;
					}));
				}
				go.countDown();
				for (Future<?> worker : workers) {
					worker.get(10, TimeUnit.MINUTES);
				}
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
			finally {
				threads.shutdownNow();
			}
			return unfinished;
		}

		private Optional<Reply> sendUntilFinal(PaymentsApi api, SoakKey key) throws InterruptedException {
			for (int tries = 0; tries < 1_000; tries++) {
				long started = System.nanoTime();
				History.Call call = this.history.invoke(key.key());
				Reply reply;
				try {
					reply = api.pay(key.key(), key.body());
				}
				catch (RuntimeException ex) {
					call.info(0);
					throw ex;
				}
				long ended = System.nanoTime();
				call.answered(reply.status(), reply.body());
				this.exchanges.add(new Exchange(started, ended, reply.status(),
						(reply.status() >= 400) ? reply.problemType() : "", reply.header("Retry-After").isPresent()));
				boolean retry = reply.status() == 503 || reply.status() == 409;
				if (!retry) {
					return Optional.of(reply);
				}
				// A client honouring Retry-After (whole seconds).
				long seconds = reply.header("Retry-After").map(Long::parseLong).orElse(1L);
				Thread.sleep(Duration.ofSeconds(seconds));
			}
			return Optional.empty();
		}

	}

	/** One HTTP exchange of the soak, timed on the client. */
	record Exchange(long started, long ended, int status, String type, boolean retryAfter) {

		long nanos() {
			return this.ended - this.started;
		}

		boolean serviceUnavailable() {
			return this.status == 503 && SERVICE_UNAVAILABLE.equals(this.type);
		}

	}

	record SoakKey(String key, String orderId, long amount, boolean declines) {

		String body() {
			return """
					{"orderId":"%s","amount":%d,"currency":"ILS","paymentMethod":"%s"}""".formatted(this.orderId,
					this.amount, this.declines ? "pm_card_chargeDeclined" : "pm_card_visa");
		}

	}

	/** Polls {@code /actuator/health} every 100 ms on a thread of its own. */
	static final class Health {

		private final ConcurrentLinkedQueue<long[]> answers = new ConcurrentLinkedQueue<>();

		private final AtomicBoolean polling = new AtomicBoolean(true);

		private final Thread thread;

		Health(int port) {
			HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
			HttpRequest probe = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health"))
				.timeout(Duration.ofSeconds(30))
				.build();
			this.thread = Thread.ofPlatform().daemon(true).name("health-probe").start(() -> {
				while (this.polling.get()) {
					long started = System.nanoTime();
					try {
						int status = http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode();
						this.answers.add(new long[] { started, status });
						Thread.sleep(100);
					}
					catch (IOException ex) {
						this.answers.add(new long[] { started, 0 });
					}
					catch (InterruptedException ex) {
						return;
					}
				}
			});
		}

		boolean sawSince(long nanos, int status) {
			return this.answers.stream().anyMatch((answer) -> answer[0] >= nanos && answer[1] == status);
		}

		void stop() throws InterruptedException {
			this.polling.set(false);
			this.thread.join(Duration.ofSeconds(30));
		}

	}

	/** The figures of one scenario, printed for the README's table. */
	record Figures(Soak soak, long duplicates, long lost, long stuck, Exchange longest,
			Exchange longestServiceUnavailable, int anomalies) {

		/**
		 * The longest stretch in which every answer was {@code service-unavailable}: from
		 * the start of a request so answered to the end of the first request answered
		 * otherwise after it.
		 */
		Duration longestServiceUnavailableGap() {
			List<Exchange> byEnd = this.soak.exchanges.stream()
				.sorted(Comparator.comparingLong(Exchange::ended))
				.toList();
			long longest = 0;
			long openedAt = -1;
			for (Exchange exchange : byEnd) {
				if (exchange.serviceUnavailable()) {
					if (openedAt < 0) {
						openedAt = exchange.started();
					}
				}
				else if (openedAt >= 0) {
					longest = Math.max(longest, exchange.ended() - openedAt);
					openedAt = -1;
				}
			}
			return Duration.ofNanos(longest);
		}

		void print(String scenario) {
			Map<Integer, Long> statuses = new java.util.TreeMap<>();
			this.soak.exchanges.forEach((exchange) -> statuses.merge(exchange.status(), 1L, Long::sum));
			System.out.printf(
					"DB soak | %s | keys %d | HTTP requests %d %s | service-unavailable %d | duplicates %d | lost %d | "
							+ "stuck %d | longest 503 gap %d ms | longest request %d ms | longest service-unavailable %d ms "
							+ "(bound %d ms + %d ms slack) | history %d operations, %d anomalies%n",
					scenario, KEYS, this.soak.exchanges.size(), statuses, this.soak.replies("service-unavailable"),
					this.duplicates, this.lost, this.stuck, longestServiceUnavailableGap().toMillis(),
					Duration.ofNanos(this.longest.nanos()).toMillis(),
					Duration.ofNanos(this.longestServiceUnavailable.nanos()).toMillis(), OUTAGE_WAIT.toMillis(),
					SLACK.toMillis(), this.soak.history.size(), this.anomalies);
		}

	}

}
