package dev.payonce.history;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks a history of client operations against the end state (the provider's ledger and
 * the database), key by key, and names every anomaly:
 * <ul>
 * <li>a success ({@link Operation.Type#OK}) with not exactly one charge;</li>
 * <li>a charge for a key that got a definite refusal ({@link Operation.Type#FAIL});</li>
 * <li>a final answer other than the key's first final answer (docs/design.md section 2: a
 * replay is the stored answer, byte for byte);</li>
 * <li>a key whose answers were all unknown ({@link Operation.Type#INFO}) charged more
 * than once;</li>
 * <li>refunds above the paid amount (docs/design.md section 8);</li>
 * <li>a key whose record is still in progress (docs/design.md section 4: no key
 * stuck);</li>
 * <li>for captures and voids (docs/design.md section 15): a capture's key with more than
 * one provider capture (a double capture, named instead of the charge rules' "not exactly
 * one"), a payment the provider captured above its authorized amount, a provider capture
 * of a payment after its void, and a payment still holding a capture reservation or a
 * void at the end.</li>
 * </ul>
 * Keys of the end state that no operation named are checked too: a charge nobody asked
 * for would otherwise go unseen.
 */
public final class HistoryChecker {

	private HistoryChecker() {
	}

	/**
	 * The anomalies of a history.
	 * @param history the operations the clients saw
	 * @param ends what the ledger and the database hold for each key at the end; a key
	 * missing here holds nothing ({@link KeyOutcome#NOTHING})
	 * @return the anomalies, by key in key order; empty if the history is sound
	 */
	public static List<Anomaly> check(History history, Map<String, KeyOutcome> ends) {
		Map<String, List<Operation>> byKey = new LinkedHashMap<>();
		for (Operation operation : history.operations()) {
			byKey.computeIfAbsent(operation.key(), (key) -> new ArrayList<>()).add(operation);
		}
		Set<String> keys = new TreeSet<>(byKey.keySet());
		keys.addAll(ends.keySet());
		List<Anomaly> anomalies = new ArrayList<>();
		for (String key : keys) {
			check(key, byKey.getOrDefault(key, List.of()), ends.getOrDefault(key, KeyOutcome.NOTHING), anomalies);
		}
		return anomalies;
	}

	/**
	 * Checks a soak's history as {@link #check} does and prints its closing line: the
	 * history's size, by type, the anomalies found counted by kind (every kind, so a zero
	 * is a figure too), and each named with its key (never a body).
	 * @param soak the soak's name, for the line
	 * @param history the operations the clients saw
	 * @param ends what the ledger and the database hold for each key at the end
	 * @return the anomalies; empty if the history is sound
	 */
	public static List<Anomaly> report(String soak, History history, Map<String, KeyOutcome> ends) {
		return report(soak, history, ends, System.out);
	}

	/**
	 * Checks a soak's history as {@link #check} does and prints its closing line to
	 * {@code out}.
	 * @param soak the soak's name, for the line
	 * @param history the operations the clients saw
	 * @param ends what the ledger and the database hold for each key at the end
	 * @param out where the line goes
	 * @return the anomalies; empty if the history is sound
	 */
	public static List<Anomaly> report(String soak, History history, Map<String, KeyOutcome> ends, PrintStream out) {
		List<Anomaly> anomalies = check(history, ends);
		Map<Operation.Type, Long> types = new EnumMap<>(Operation.Type.class);
		Set<String> keys = new TreeSet<>(ends.keySet());
		history.operations().forEach((operation) -> {
			types.merge(operation.type(), 1L, Long::sum);
			keys.add(operation.key());
		});
		Map<Anomaly.Kind, Long> kinds = new EnumMap<>(Anomaly.Kind.class);
		for (Anomaly.Kind kind : Anomaly.Kind.values()) {
			kinds.put(kind, anomalies.stream().filter((anomaly) -> anomaly.kind() == kind).count());
		}
		out.printf("History %s: %d operations %s over %d keys, %d anomalies %s%s%n", soak, history.size(), types,
				keys.size(), anomalies.size(), kinds, anomalies.isEmpty() ? "" : " " + anomalies);
		return anomalies;
	}

	private static void check(String key, List<Operation> operations, KeyOutcome end, List<Anomaly> anomalies) {
		boolean succeeded = operations.stream().anyMatch((operation) -> operation.type() == Operation.Type.OK);
		boolean refused = operations.stream().anyMatch((operation) -> operation.type() == Operation.Type.FAIL);
		KeyOutcome.Holds holds = end.holds();
		if (holds.capture() && end.charges() > 1) {
			anomalies
				.add(new Anomaly(Anomaly.Kind.DOUBLE_CAPTURE, key, end.charges() + " provider captures under one key"));
		}
		if (succeeded && end.charges() != 1 && !(holds.capture() && end.charges() > 1)) {
			anomalies.add(new Anomaly(Anomaly.Kind.SUCCESS_WITHOUT_ONE_CHARGE, key,
					"answered with a success, charged " + end.charges() + " times"));
		}
		if (refused && end.charges() > 0) {
			anomalies.add(new Anomaly(Anomaly.Kind.CHARGE_AFTER_DEFINITE_FAILURE, key,
					"answered with a definite refusal, charged " + end.charges() + " times"));
		}
		if (!succeeded && !refused && end.charges() > 1 && !holds.capture()) {
			anomalies.add(new Anomaly(Anomaly.Kind.UNKNOWN_CHARGED_TWICE, key,
					"every answer unknown, charged " + end.charges() + " times"));
		}
		Operation first = operations.stream().filter(Operation::isFinal).findFirst().orElse(null);
		if (first != null) {
			long differing = operations.stream()
				.filter(Operation::isFinal)
				.filter((operation) -> operation.status() != first.status()
						|| !Objects.equals(operation.bodyDigest(), first.bodyDigest()))
				.count();
			if (differing > 0) {
				anomalies.add(new Anomaly(Anomaly.Kind.REPLAY_DIFFERS, key,
						differing + " final answers differ from the first (status " + first.status() + ")"));
			}
		}
		if (end.refunded() > end.paid()) {
			anomalies.add(new Anomaly(Anomaly.Kind.REFUND_ABOVE_PAID, key,
					"refunded " + end.refunded() + " of " + end.paid() + " minor units paid"));
		}
		if (end.inProgress()) {
			anomalies.add(new Anomaly(Anomaly.Kind.KEY_IN_PROGRESS, key, "record still IN_PROGRESS"));
		}
		if (holds.captured() > end.paid()) {
			anomalies.add(new Anomaly(Anomaly.Kind.OVER_CAPTURE, key,
					"captured " + holds.captured() + " of " + end.paid() + " minor units authorized"));
		}
		if (holds.capturesAfterVoid() > 0) {
			anomalies.add(new Anomaly(Anomaly.Kind.CAPTURE_AFTER_VOID, key,
					holds.capturesAfterVoid() + " provider captures after the void"));
		}
		if (holds.held()) {
			anomalies.add(new Anomaly(Anomaly.Kind.HOLD_LEFT, key, "payment still holds a capture or a void"));
		}
	}

}
