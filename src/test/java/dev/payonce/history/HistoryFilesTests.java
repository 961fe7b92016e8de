package dev.payonce.history;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class HistoryFilesTests {

	private static final String RECEIPT = Operation.digest("{\"id\":\"p-1\",\"status\":\"SUCCEEDED\"}");

	private static final String OTHER_RECEIPT = Operation.digest("{\"id\":\"p-2\",\"status\":\"SUCCEEDED\"}");

	private static final String DECLINED = Operation
		.digest("{\"type\":\"https://payonce.dev/problems/payment-declined\"}");

	private static final String BUSY = Operation
		.digest("{\"type\":\"https://payonce.dev/problems/service-unavailable\"}");

	private static final String PAYMENT = "0b7c6f3e-1d2a-4c5b-8e9f-0a1b2c3d4e5f";

	private static final String DECLINED_PAYMENT = "1c8d7a4f-2e3b-4d6c-9fa0-1b2c3d4e5f60";

	private static final String REFUND = "2d9e8b5a-3f4c-4e7d-a0b1-2c3d4e5f6071";

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private final ByteArrayOutputStream err = new ByteArrayOutputStream();

	@TempDir
	Path dir;

	@Test
	void passesACleanHistoryReadFromFiles() throws IOException {
		Path history = file("history", """
				storm-1 503 %s info
				storm-1 0 - info
				storm-1 201 %s ok
				storm-2 409 - info
				storm-1 201 %s ok
				storm-2 402 %s fail
				storm-2 402 %s fail
				""".formatted(BUSY, RECEIPT, RECEIPT, DECLINED, DECLINED));
		Path end = endState(record("storm-1", false, "", PAYMENT, 1200),
				record("storm-2", false, "", DECLINED_PAYMENT, 1200), row("charges", PAYMENT, 1));

		int status = run("check", "storm test", history.toString(), end.toString());

		assertThat(status).isZero();
		assertThat(this.out.toString(StandardCharsets.UTF_8)).startsWith("History storm test: 7 operations")
			.contains("over 2 keys, 0 anomalies");
	}

	@Test
	void namesTheAnomalyOfAHistoryReadFromFiles() throws IOException {
		Path history = file("history", """
				storm-1 201 %s ok
				storm-1 201 %s ok
				""".formatted(RECEIPT, OTHER_RECEIPT));
		Path end = endState(record("storm-1", false, "", PAYMENT, 1200), row("charges", PAYMENT, 1));

		int status = run("check", "storm test", history.toString(), end.toString());

		assertThat(status).isEqualTo(HistoryFiles.ANOMALOUS);
		assertThat(this.out.toString(StandardCharsets.UTF_8)).contains("1 anomalies")
			.contains("REPLAY_DIFFERS")
			.contains("storm-1");
	}

	@Test
	void namesAChargeOfAKeyWhoseEveryAnswerWasUnknown() throws IOException {
		Path history = file("history", "storm-1 0 - info\n");
		Path end = endState(record("storm-1", false, "", PAYMENT, 1200), row("charges", PAYMENT, 2));

		int status = run("check", "storm test", history.toString(), end.toString());

		assertThat(status).isEqualTo(HistoryFiles.ANOMALOUS);
		assertThat(this.out.toString(StandardCharsets.UTF_8)).contains("UNKNOWN_CHARGED_TWICE");
	}

	@Test
	void readsTheEndStateAsTheDatabaseSoaksDo() throws IOException {
		Path end = endState(record("paid", false, "", PAYMENT, 1200), record("refund", false, REFUND, PAYMENT, 1200),
				record("declined", false, "", DECLINED_PAYMENT, 900), record("claimed", true, "", "", 0),
				row("charges", PAYMENT, 1), row("refunds", REFUND, 1), row("refunded", PAYMENT, 1300));

		Map<String, KeyOutcome> outcomes = HistoryFiles.endState(end);

		assertThat(outcomes).containsOnly(Map.entry("paid", new KeyOutcome(1, 1200, 1300, false)),
				Map.entry("refund", new KeyOutcome(1, 1200, 1300, false)),
				Map.entry("declined", new KeyOutcome(0, 0, 0, false)),
				Map.entry("claimed", new KeyOutcome(0, 0, 0, true)));
	}

	@Test
	void refusesALineWhoseTypeIsNotTheOneItsStatusGives() throws IOException {
		Path history = file("history", "storm-1 201 %s ok\nstorm-1 503 %s ok\n".formatted(RECEIPT, BUSY));
		Path end = endState();

		int status = run("check", "storm test", history.toString(), end.toString());

		assertThat(status).isEqualTo(HistoryFiles.UNUSABLE);
		assertThat(this.err.toString(StandardCharsets.UTF_8)).contains(history + ":2:").contains("status 503 is INFO");
	}

	@Test
	void refusesAFinalAnswerWithoutItsDigest() throws IOException {
		Path history = file("history", "storm-1 201 - ok\n");

		int status = run("check", "storm test", history.toString(), endState().toString());

		assertThat(status).isEqualTo(HistoryFiles.UNUSABLE);
		assertThat(this.err.toString(StandardCharsets.UTF_8)).contains(history + ":1:").contains("digest");
	}

	@Test
	void refusesAnEndStateRowOfAnUnknownKind() throws IOException {
		Path end = file("end", "payments\tx\t1\n");

		int status = run("check", "storm test", file("history", "").toString(), end.toString());

		assertThat(status).isEqualTo(HistoryFiles.UNUSABLE);
		assertThat(this.err.toString(StandardCharsets.UTF_8)).contains(end + ":1:").contains("payments");
	}

	@Test
	void printsOneTaggedQueryPerKindOfRowWithTheKeyPatternAsAPsqlVariable() {
		int status = run("queries");

		String queries = this.out.toString(StandardCharsets.UTF_8);
		assertThat(status).isZero();
		assertThat(queries)
			.contains("SELECT 'record', q.*", "SELECT 'charges', q.*", "SELECT 'refunds', q.*",
					"SELECT 'refunded', q.*", "LIKE :'keys'")
			.doesNotContain("?");
		assertThat(queries.split(";\n")).hasSize(4);
	}

	@Test
	void answersUsageToAnUnknownCommand() {
		int status = run("check", "only-a-name");

		assertThat(status).isEqualTo(HistoryFiles.UNUSABLE);
		assertThat(this.err.toString(StandardCharsets.UTF_8)).startsWith("usage:");
	}

	private int run(String... args) {
		return HistoryFiles.run(args, new PrintStream(this.out, true, StandardCharsets.UTF_8),
				new PrintStream(this.err, true, StandardCharsets.UTF_8));
	}

	private Path file(String name, String text) throws IOException {
		return Files.writeString(this.dir.resolve(name), text);
	}

	private Path endState(String... rows) throws IOException {
		return file("end", String.join("", rows));
	}

	private static String record(String key, boolean inProgress, String refundId, String paymentId, long amount) {
		return String.join("\t", "record", key, inProgress ? "t" : "f", refundId, paymentId, Long.toString(amount))
				+ "\n";
	}

	private static String row(String kind, String id, long value) {
		return String.join("\t", kind, id, Long.toString(value)) + "\n";
	}

}
