package dev.payonce.history;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HistoryCheckerTests {

	private static final String RECEIPT = "{\"id\":\"p-1\",\"status\":\"SUCCEEDED\"}";

	private static final String CAPTURE = "{\"id\":\"c-1\",\"status\":\"SUCCEEDED\"}";

	private static final String VOID = "{\"id\":\"v-1\",\"status\":\"SUCCEEDED\"}";

	private static final String DECLINED = "{\"type\":\"https://payonce.dev/problems/payment-declined\"}";

	@Test
	void passesACleanHistoryWithRetriesUnknownsAndReplays() {
		History history = new History();
		history.info("paid", 503);
		history.info("paid", 0);
		history.ok("paid", 201, RECEIPT);
		history.ok("paid", 201, RECEIPT);
		history.info("declined", 409);
		history.fail("declined", 402, DECLINED);
		history.fail("declined", 402, DECLINED);
		history.info("unknown", 503);

		List<Anomaly> anomalies = HistoryChecker.check(history, Map.of("paid", new KeyOutcome(1, 1200, 600, false),
				"declined", KeyOutcome.NOTHING, "unknown", new KeyOutcome(1, 1200, 0, false)));

		assertThat(anomalies).isEmpty();
		assertThat(history.size()).isEqualTo(8);
	}

	@Test
	void namesASuccessWithoutACharge() {
		History history = new History();
		history.ok("k", 201, RECEIPT);

		assertThat(kinds(history, Map.of("k", KeyOutcome.NOTHING)))
			.containsExactly(Anomaly.Kind.SUCCESS_WITHOUT_ONE_CHARGE);
	}

	@Test
	void namesASuccessWithTwoCharges() {
		History history = new History();
		history.ok("k", 201, RECEIPT);

		assertThat(kinds(history, Map.of("k", new KeyOutcome(2, 1200, 0, false))))
			.containsExactly(Anomaly.Kind.SUCCESS_WITHOUT_ONE_CHARGE);
	}

	@Test
	void namesAChargeForAKeyThatGotADefiniteRefusal() {
		History history = new History();
		history.fail("k", 402, DECLINED);

		assertThat(kinds(history, Map.of("k", new KeyOutcome(1, 1200, 0, false))))
			.containsExactly(Anomaly.Kind.CHARGE_AFTER_DEFINITE_FAILURE);
	}

	@Test
	void namesAReplayWhoseBodyDiffersFromTheFirstFinalAnswer() {
		History history = new History();
		history.ok("k", 201, RECEIPT);
		history.ok("k", 201, RECEIPT.replace("p-1", "p-2"));

		assertThat(kinds(history, Map.of("k", new KeyOutcome(1, 1200, 0, false))))
			.containsExactly(Anomaly.Kind.REPLAY_DIFFERS);
	}

	@Test
	void namesAReplayWhoseStatusDiffersFromTheFirstFinalAnswer() {
		History history = new History();
		history.fail("k", 402, DECLINED);
		history.fail("k", 409, DECLINED);

		assertThat(kinds(history, Map.of("k", KeyOutcome.NOTHING))).containsExactly(Anomaly.Kind.REPLAY_DIFFERS);
	}

	@Test
	void namesASuccessAfterADefiniteRefusalForTheSameKey() {
		History history = new History();
		history.fail("k", 402, DECLINED);
		history.ok("k", 201, RECEIPT);

		assertThat(kinds(history, Map.of("k", new KeyOutcome(1, 1200, 0, false))))
			.containsExactly(Anomaly.Kind.CHARGE_AFTER_DEFINITE_FAILURE, Anomaly.Kind.REPLAY_DIFFERS);
	}

	@Test
	void namesAnUnknownResolvedToTwoCharges() {
		History history = new History();
		history.info("k", 0);
		history.info("k", 503);

		assertThat(kinds(history, Map.of("k", new KeyOutcome(2, 1200, 0, false))))
			.containsExactly(Anomaly.Kind.UNKNOWN_CHARGED_TWICE);
	}

	@Test
	void acceptsAnUnknownResolvedToOneChargeOrNone() {
		History history = new History();
		history.info("once", 0);
		history.info("never", 503);

		assertThat(HistoryChecker.check(history,
				Map.of("once", new KeyOutcome(1, 1200, 0, false), "never", KeyOutcome.NOTHING)))
			.isEmpty();
	}

	@Test
	void namesRefundsAboveThePaidAmount() {
		History history = new History();
		history.ok("k", 201, RECEIPT);

		assertThat(kinds(history, Map.of("k", new KeyOutcome(1, 1200, 1201, false))))
			.containsExactly(Anomaly.Kind.REFUND_ABOVE_PAID);
	}

	@Test
	void namesAKeyLeftInProgress() {
		History history = new History();
		history.info("k", 503);

		assertThat(kinds(history, Map.of("k", new KeyOutcome(0, 0, 0, true))))
			.containsExactly(Anomaly.Kind.KEY_IN_PROGRESS);
	}

	@Test
	void passesACleanHistoryOfCapturesAndAVoid() {
		History history = new History();
		history.ok("pay", 201, RECEIPT);
		history.info("capture-1", 503);
		history.ok("capture-1", 201, CAPTURE);
		history.ok("capture-1", 201, CAPTURE);
		history.info("capture-2", 409);
		history.ok("void", 200, VOID);
		history.ok("void", 200, VOID);

		List<Anomaly> anomalies = HistoryChecker.check(history,
				Map.of("pay", new KeyOutcome(1, 1000, 0, false, new KeyOutcome.Holds(false, 600, 0, false)),
						"capture-1", new KeyOutcome(1, 0, 0, false, KeyOutcome.Holds.CAPTURE), "capture-2",
						new KeyOutcome(0, 0, 0, false, KeyOutcome.Holds.CAPTURE), "void",
						new KeyOutcome(1, 0, 0, false)));

		assertThat(anomalies).isEmpty();
	}

	@Test
	void namesTwoProviderCapturesUnderOneCaptureKey() {
		History history = new History();
		history.ok("answered", 201, CAPTURE);
		history.info("unknown", 503);

		assertThat(HistoryChecker.check(history,
				Map.of("answered", new KeyOutcome(2, 0, 0, false, KeyOutcome.Holds.CAPTURE), "unknown",
						new KeyOutcome(2, 0, 0, false, KeyOutcome.Holds.CAPTURE))))
			.extracting(Anomaly::kind)
			.containsExactly(Anomaly.Kind.DOUBLE_CAPTURE, Anomaly.Kind.DOUBLE_CAPTURE);
	}

	@Test
	void namesACaptureAboveTheAuthorizedAmount() {
		History history = new History();
		history.ok("k", 201, RECEIPT);

		assertThat(kinds(history,
				Map.of("k", new KeyOutcome(1, 1000, 0, false, new KeyOutcome.Holds(false, 1001, 0, false)))))
			.containsExactly(Anomaly.Kind.OVER_CAPTURE);
	}

	@Test
	void namesACaptureAfterTheVoid() {
		History history = new History();
		history.ok("k", 201, RECEIPT);

		assertThat(kinds(history,
				Map.of("k", new KeyOutcome(1, 1000, 0, false, new KeyOutcome.Holds(false, 400, 1, false)))))
			.containsExactly(Anomaly.Kind.CAPTURE_AFTER_VOID);
	}

	@Test
	void namesAStuckCaptureRecordAndAPaymentLeftHeld() {
		History history = new History();
		history.ok("pay", 201, RECEIPT);
		history.info("capture", 503);

		assertThat(kinds(history,
				Map.of("pay", new KeyOutcome(1, 1000, 0, false, new KeyOutcome.Holds(false, 0, 0, true)), "capture",
						new KeyOutcome(0, 0, 0, true, KeyOutcome.Holds.CAPTURE))))
			.containsExactly(Anomaly.Kind.KEY_IN_PROGRESS, Anomaly.Kind.HOLD_LEFT);
	}

	@Test
	void theClosingLineCountsEveryKindOfAnomaly() {
		History history = new History();
		history.ok("capture", 201, CAPTURE);
		java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

		List<Anomaly> anomalies = HistoryChecker.report("test", history,
				Map.of("capture", new KeyOutcome(2, 0, 0, false, KeyOutcome.Holds.CAPTURE)),
				new java.io.PrintStream(line, true, java.nio.charset.StandardCharsets.UTF_8));

		assertThat(anomalies).extracting(Anomaly::kind).containsExactly(Anomaly.Kind.DOUBLE_CAPTURE);
		assertThat(line.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("1 anomalies")
			.contains("DOUBLE_CAPTURE=1", "OVER_CAPTURE=0", "CAPTURE_AFTER_VOID=0", "KEY_IN_PROGRESS=0", "HOLD_LEFT=0");
	}

	@Test
	void namesAChargeOfAKeyNoClientSent() {
		History history = new History();

		assertThat(HistoryChecker.check(history, Map.of("nobody", new KeyOutcome(2, 1200, 0, false))))
			.extracting(Anomaly::kind, Anomaly::key)
			.containsExactly(org.assertj.core.groups.Tuple.tuple(Anomaly.Kind.UNKNOWN_CHARGED_TWICE, "nobody"));
	}

	@Test
	void ordersOperationsByCompletionAcrossThreads() throws Exception {
		History history = new History();
		java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
		List<Thread> threads = java.util.stream.IntStream.range(0, 8).mapToObj((t) -> Thread.ofPlatform().start(() -> {
			try {
				go.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			for (int i = 0; i < 1_000; i++) {
				history.info("k" + t, 503);
			}
		})).toList();

		go.countDown();
		for (Thread thread : threads) {
			thread.join();
		}

		assertThat(history.operations()).hasSize(8_000).extracting(Operation::index).isSorted().doesNotHaveDuplicates();
	}

	@Test
	void countsAnInvocationNeverCompletedAsUnknown() {
		History history = new History();
		history.invoke("k");
		history.invoke("k").info(503);

		List<Anomaly> anomalies = HistoryChecker.check(history, Map.of("k", new KeyOutcome(2, 1200, 0, false)));

		assertThat(history.size()).isEqualTo(2);
		assertThat(history.operations()).extracting(Operation::type)
			.containsExactly(Operation.Type.INFO, Operation.Type.INFO);
		assertThat(anomalies).extracting(Anomaly::kind).containsExactly(Anomaly.Kind.UNKNOWN_CHARGED_TWICE);
	}

	private static List<Anomaly.Kind> kinds(History history, Map<String, KeyOutcome> ends) {
		return HistoryChecker.check(history, ends).stream().map(Anomaly::kind).toList();
	}

}
