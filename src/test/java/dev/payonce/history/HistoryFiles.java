package dev.payonce.history;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * {@link HistoryChecker} for a soak that runs outside the JVM (the cluster storm,
 * {@code deploy/cluster/scenarios.sh}): its history and its end state are read from two
 * files and checked by the same rules as the JUnit soaks' histories. Runs on the JDK
 * alone ({@code java -cp target/test-classes dev.payonce.history.HistoryFiles ...}):
 * nothing it loads needs Spring or a JDBC driver.
 * <ul>
 * <li>{@code queries}: prints the psql script that writes the end state; psql runs it
 * with the variable {@code keys} set to a SQL {@code LIKE} pattern of the run's
 * idempotency keys, unaligned and tab-separated
 * ({@code psql -At -F '<tab>' -v keys=...}), and its output is the end-state file: one
 * row per line, tagged by its first field: {@code record} (key, {@code t}/{@code f} in
 * progress, refund id, payment id, amount in minor units; an absent id is empty),
 * {@code charges}, {@code refunds} and {@code refunded} (an id and a count or a sum in
 * minor units), the rows of {@link EndState}'s queries.</li>
 * <li>{@code check NAME HISTORY END_STATE}: prints the closing line of
 * {@link HistoryChecker#report} and exits 0 if the history is sound, 1 if it has an
 * anomaly (each named on the line), 2 if a file is unreadable or malformed (the file and
 * line named on standard error).</li>
 * </ul>
 * The history file has one line per completed exchange, in the order the exchanges
 * completed, fields separated by blanks: the idempotency key, the HTTP status ({@code 0}
 * when no answer came), the SHA-256 of the answer's body in hex ({@code -} when no answer
 * came) and the type of the operation, {@code ok}, {@code fail} or {@code info}, which
 * must be the one {@link Operation.Type#of} gives for the status. An unknown outcome's
 * digest is not kept, as in the JUnit soaks.
 */
public final class HistoryFiles {

	/** Exit status of {@code check} when the history has an anomaly. */
	static final int ANOMALOUS = 1;

	/** Exit status when the arguments or a file are unusable. */
	static final int UNUSABLE = 2;

	private static final Pattern DIGEST = Pattern.compile("[0-9a-f]{64}");

	private static final String USAGE = "usage: HistoryFiles queries | HistoryFiles check NAME HISTORY END_STATE";

	private HistoryFiles() {
	}

	/**
	 * Runs one command.
	 * @param args the command and its arguments
	 * @param out where the queries or the closing line go
	 * @param err where a usage or file error goes
	 * @return the exit status: 0 sound (or queries printed), {@value #ANOMALOUS} an
	 * anomaly, {@value #UNUSABLE} unusable arguments or files
	 */
	public static int run(String[] args, PrintStream out, PrintStream err) {
		if (args.length == 1 && args[0].equals("queries")) {
			out.print(queries());
			return 0;
		}
		if (args.length != 4 || !args[0].equals("check")) {
			err.println(USAGE);
			return UNUSABLE;
		}
		History history;
		Map<String, KeyOutcome> ends;
		try {
			history = history(Path.of(args[2]));
			ends = endState(Path.of(args[3]));
		}
		catch (IllegalArgumentException | UncheckedIOException ex) {
			err.println("HistoryFiles: " + ex.getMessage());
			return UNUSABLE;
		}
		return HistoryChecker.report(args[1], history, ends, out).isEmpty() ? 0 : ANOMALOUS;
	}

	/**
	 * The psql script that writes the end state of the keys matching {@code :'keys'}.
	 * @return the script, one tagged query per kind of row
	 */
	static String queries() {
		return tagged("record", EndState.RECORDS.replace("?", ":'keys'")) + tagged("charges", EndState.CHARGES)
				+ tagged("refunds", EndState.REFUNDS) + tagged("refunded", EndState.REFUNDED);
	}

	private static String tagged(String tag, String query) {
		return "SELECT '" + tag + "', q.* FROM (\n" + query + "\n) q;\n";
	}

	/**
	 * Reads a history file.
	 * @param file the file
	 * @return its operations, in the file's order
	 * @throws IllegalArgumentException naming the file and line of a malformed line
	 */
	static History history(Path file) {
		History history = new History();
		List<String> lines = lines(file);
		for (int n = 0; n < lines.size(); n++) {
			String line = lines.get(n).strip();
			if (line.isEmpty()) {
				continue;
			}
			try {
				String[] fields = line.split("\\s+");
				if (fields.length != 4) {
					throw new IllegalArgumentException(
							"expected key, status, digest and type, found " + fields.length + " fields");
				}
				int status = status(fields[1]);
				Operation.Type type = type(fields[3], status);
				String digest = digest(fields[2]);
				history.add(fields[0], type, status, (type == Operation.Type.INFO) ? null : digest);
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException(file + ":" + (n + 1) + ": " + ex.getMessage(), ex);
			}
		}
		return history;
	}

	/**
	 * Reads an end-state file.
	 * @param file the file psql wrote from {@link #queries}
	 * @return each key's outcome; a key with no record is absent (it holds nothing)
	 * @throws IllegalArgumentException naming the file and line of a malformed line
	 */
	static Map<String, KeyOutcome> endState(Path file) {
		Map<String, Long> charges = new HashMap<>();
		Map<String, Long> refunds = new HashMap<>();
		Map<String, Long> refunded = new HashMap<>();
		Map<String, KeyRow> records = new HashMap<>();
		List<String> lines = lines(file);
		for (int n = 0; n < lines.size(); n++) {
			if (lines.get(n).isEmpty()) {
				continue;
			}
			String[] fields = lines.get(n).split("\t", -1);
			try {
				switch (fields[0]) {
					case "record" -> records.put(fields(fields, 6)[1],
							new KeyRow(absent(fields[4]), absent(fields[3]), number(fields[5]), bool(fields[2])));
					case "charges" -> charges.put(fields(fields, 3)[1], number(fields[2]));
					case "refunds" -> refunds.put(fields(fields, 3)[1], number(fields[2]));
					case "refunded" -> refunded.put(fields(fields, 3)[1], number(fields[2]));
					default -> throw new IllegalArgumentException("unknown row kind '" + fields[0] + "'");
				}
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException(file + ":" + (n + 1) + ": " + ex.getMessage(), ex);
			}
		}
		ProviderLedger ledger = new EndState.Ledger(charges, refunds, refunded);
		Map<String, KeyOutcome> outcomes = new HashMap<>();
		records.forEach((key, row) -> outcomes.put(key,
				EndState.outcome(ledger, row.paymentId(), row.refundId(), row.amount(), row.inProgress())));
		return outcomes;
	}

	private static List<String> lines(Path file) {
		try {
			return Files.readAllLines(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read " + file + ": " + ex.getMessage(), ex);
		}
	}

	private static int status(String field) {
		try {
			int status = Integer.parseInt(field);
			if (status < 0 || status > 599) {
				throw new IllegalArgumentException("status out of range: " + field);
			}
			return status;
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("status is not a number: " + field, ex);
		}
	}

	private static Operation.Type type(String field, int status) {
		Operation.Type type;
		try {
			type = Operation.Type.valueOf(field.toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("type must be ok, fail or info: " + field, ex);
		}
		if (type != Operation.Type.of(status)) {
			throw new IllegalArgumentException(
					"status " + status + " is " + Operation.Type.of(status) + ", not " + type + " (Operation.Type.of)");
		}
		return type;
	}

	private static @Nullable String digest(String field) {
		if (field.equals("-")) {
			return null;
		}
		if (!DIGEST.matcher(field).matches()) {
			throw new IllegalArgumentException("digest must be 64 lowercase hex digits or '-': " + field);
		}
		return field;
	}

	private static String[] fields(String[] fields, int count) {
		if (fields.length != count) {
			throw new IllegalArgumentException(
					"a " + fields[0] + " row has " + count + " fields, found " + fields.length);
		}
		return fields;
	}

	private static long number(String field) {
		try {
			return Long.parseLong(field);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("not a whole number: '" + field + "'", ex);
		}
	}

	private static boolean bool(String field) {
		return switch (field) {
			case "t" -> true;
			case "f" -> false;
			default -> throw new IllegalArgumentException("in_progress must be t or f: '" + field + "'");
		};
	}

	private static @Nullable String absent(String field) {
		return field.isEmpty() ? null : field;
	}

	/** A {@code record} row: the ledger is read in full before its outcome is known. */
	private record KeyRow(@Nullable String paymentId, @Nullable String refundId, long amount, boolean inProgress) {
	}

}
