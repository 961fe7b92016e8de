package dev.payonce.gateway.simulator;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.gateway.simulator.SimulatorProperties.Fault;
import dev.payonce.payment.PaymentId;
import dev.payonce.provider.CaptureMethod;
import dev.payonce.provider.CaptureRequest;
import dev.payonce.provider.ChargeRequest;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.Money;
import dev.payonce.provider.ProviderAttempt;
import dev.payonce.provider.RefundRequest;
import dev.payonce.provider.VoidRequest;
import dev.payonce.refund.RefundId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The simulator behaves like a provider: one charge and one refund per provider
 * idempotency key, ledgers that answer lookups, and each configured fault with its
 * documented effect on the ledger, for charges and refunds alike. Each test builds its
 * own simulator with the fault under test firing on every call. Captures are deduplicated
 * by their provider idempotency key even when one key arrives twice at once.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class SimulatorPaymentGatewayIntegrationTests {

	private static final Fault OFF = new Fault(0, 0);

	private static final Fault ALWAYS = new Fault(0, 1);

	@Autowired
	JdbcClient jdbc;

	@Autowired
	PlatformTransactionManager transactionManager;

	@Autowired
	JdbcConnectionDetails database;

	@Test
	void chargesOncePerProviderIdempotencyKey() {
		SimulatorPaymentGateway simulator = simulator(OFF, OFF, OFF, Duration.ZERO);
		ChargeRequest request = charge("pm_card_visa");

		GatewayResult first = simulator.charge(request);
		GatewayResult second = simulator.charge(request);

		assertThat(first).isInstanceOf(GatewayResult.Approved.class);
		assertThat(second).isEqualTo(first);
		assertThat(ledgerRows(request)).isEqualTo(1);
		assertThat(simulator.lookup(request)).isEqualTo(first);
	}

	@Test
	void declinesTestTokensAndRemembersTheDecline() {
		SimulatorPaymentGateway simulator = simulator(OFF, OFF, OFF, Duration.ZERO);
		ChargeRequest request = charge("pm_card_chargeDeclinedInsufficientFunds");

		GatewayResult result = simulator.charge(request);

		assertThat(result).isInstanceOfSatisfying(GatewayResult.Declined.class,
				(declined) -> assertThat(declined.declineCode()).isEqualTo("insufficient_funds"));
		assertThat(simulator.charge(request)).isEqualTo(result);
		assertThat(ledgerRows(request)).isEqualTo(1);
	}

	@Test
	void refusalChargesNothing() {
		SimulatorPaymentGateway simulator = simulator(ALWAYS, OFF, OFF, Duration.ZERO);
		ChargeRequest request = charge("pm_card_visa");

		GatewayResult result = simulator.charge(request);

		assertThat(result).isInstanceOf(GatewayResult.NotAttempted.class);
		assertThat(ledgerRows(request)).isZero();
		assertThat(simulator.lookup(request)).isInstanceOf(GatewayResult.NotAttempted.class);
	}

	@Test
	void errorBeforeChargeIsUnknownAndChargesNothing() {
		SimulatorPaymentGateway simulator = simulator(OFF, ALWAYS, OFF, Duration.ZERO);
		ChargeRequest request = charge("pm_card_visa");

		GatewayResult result = simulator.charge(request);

		assertThat(result).isInstanceOf(GatewayResult.Unknown.class);
		assertThat(ledgerRows(request)).isZero();
	}

	@Test
	void timeoutAfterChargeIsUnknownWhileTheLedgerHoldsTheCharge() {
		SimulatorPaymentGateway faulty = simulator(OFF, OFF, ALWAYS, Duration.ZERO);
		SimulatorPaymentGateway healthy = simulator(OFF, OFF, OFF, Duration.ZERO);
		ChargeRequest request = charge("pm_card_visa");

		GatewayResult result = faulty.charge(request);

		assertThat(result).isInstanceOf(GatewayResult.Unknown.class);
		assertThat(ledgerRows(request)).isEqualTo(1);
		GatewayResult found = healthy.lookup(request);
		assertThat(found).isInstanceOf(GatewayResult.Approved.class);
		assertThat(healthy.charge(request)).isEqualTo(found);
		assertThat(ledgerRows(request)).isEqualTo(1);
	}

	@Test
	void delayAfterChargeIsCutShortByTheClientTimeout() {
		SimulatorPaymentGateway slow = new SimulatorPaymentGateway(this.jdbc, this.transactionManager,
				new SimulatorProperties(Duration.ZERO, Duration.ofMillis(200), Duration.ofSeconds(30), OFF, OFF, OFF),
				Clock.systemUTC());
		ChargeRequest request = charge("pm_card_visa");
		long started = System.nanoTime();

		GatewayResult result = slow.charge(request);

		assertThat(result).isInstanceOf(GatewayResult.Unknown.class);
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
		assertThat(ledgerRows(request)).isEqualTo(1);
		assertThat(slow.worstCaseCallDuration()).isEqualTo(Duration.ofMillis(200));
	}

	/**
	 * A repeated void or capture key is answered from the ledger within the one call's
	 * latency: the first call and its repeat each take it once, never a second time for
	 * the repeat's read of what the key already has.
	 */
	@Test
	void aRepeatedVoidOrCaptureKeyTakesTheLatencyOnce() {
		Duration latency = Duration.ofMillis(800);
		SimulatorPaymentGateway simulator = simulator(OFF, OFF, OFF, latency);
		String voided = authorized(simulator);
		VoidRequest voidRequest = new VoidRequest(UUID.randomUUID(),
				ProviderAttempt.providerIdempotencyKey("void", UUID.randomUUID(), 1), voided);
		UUID captureId = UUID.randomUUID();
		CaptureRequest captureRequest = new CaptureRequest(captureId,
				ProviderAttempt.providerIdempotencyKey("capture", captureId, 1), authorized(simulator),
				new Money(500, Currency.getInstance("EUR")), 1500);
		GatewayResult firstVoid = simulator.voidAuthorization(voidRequest);
		GatewayResult firstCapture = simulator.capture(captureRequest);

		long voidStarted = System.nanoTime();
		GatewayResult repeatedVoid = simulator.voidAuthorization(voidRequest);
		Duration voidTook = Duration.ofNanos(System.nanoTime() - voidStarted);
		long captureStarted = System.nanoTime();
		GatewayResult repeatedCapture = simulator.capture(captureRequest);
		Duration captureTook = Duration.ofNanos(System.nanoTime() - captureStarted);

		assertThat(firstVoid).isInstanceOf(GatewayResult.Approved.class);
		assertThat(repeatedVoid).isEqualTo(firstVoid);
		assertThat(voidTook).isGreaterThanOrEqualTo(latency).isLessThan(latency.multipliedBy(2));
		assertThat(firstCapture).isInstanceOf(GatewayResult.Approved.class);
		assertThat(repeatedCapture).isEqualTo(firstCapture);
		assertThat(captureTook).isGreaterThanOrEqualTo(latency).isLessThan(latency.multipliedBy(2));
	}

	@Test
	void everyNthFaultFiresOnExactlyThoseCalls() {
		SimulatorPaymentGateway simulator = simulator(new Fault(0, 3), OFF, OFF, Duration.ZERO);

		GatewayResult first = simulator.charge(charge("pm_card_visa"));
		GatewayResult second = simulator.charge(charge("pm_card_visa"));
		GatewayResult third = simulator.charge(charge("pm_card_visa"));

		assertThat(first).isInstanceOf(GatewayResult.Approved.class);
		assertThat(second).isInstanceOf(GatewayResult.Approved.class);
		assertThat(third).isInstanceOf(GatewayResult.NotAttempted.class);
	}

	@Test
	void refundsOncePerProviderIdempotencyKeyAndAnswersLookups() {
		SimulatorPaymentGateway simulator = simulator(OFF, OFF, OFF, Duration.ZERO);
		RefundRequest request = refund(charged(simulator, "pm_card_visa"), 700);

		GatewayResult first = simulator.refund(request);
		GatewayResult second = simulator.refund(request);

		assertThat(first).isInstanceOfSatisfying(GatewayResult.Approved.class,
				(approved) -> assertThat(approved.providerReference()).startsWith("sim_re_"));
		assertThat(second).isEqualTo(first);
		assertThat(refundRows(request)).isEqualTo(1);
		assertThat(simulator.lookupRefund(request)).isEqualTo(first);
		assertThat(simulator.lookupRefund(refund("sim_ch_never_refunded", 700)))
			.isInstanceOf(GatewayResult.NotAttempted.class);
	}

	@Test
	void declinesRefundsOfRefundFailChargesAndOfUnknownCharges() {
		SimulatorPaymentGateway simulator = simulator(OFF, OFF, OFF, Duration.ZERO);
		RefundRequest refundFail = refund(charged(simulator, "pm_card_refundFail"), 700);
		RefundRequest unknownCharge = refund("sim_ch_unknown", 700);

		GatewayResult declined = simulator.refund(refundFail);
		GatewayResult notFound = simulator.refund(unknownCharge);

		assertThat(declined).isInstanceOfSatisfying(GatewayResult.Declined.class,
				(result) -> assertThat(result.declineCode()).isEqualTo("refund_failed"));
		assertThat(notFound).isInstanceOfSatisfying(GatewayResult.Declined.class,
				(result) -> assertThat(result.declineCode()).isEqualTo("charge_not_found"));
		assertThat(simulator.lookupRefund(refundFail)).isEqualTo(declined);
	}

	@Test
	void everyFaultAppliesToRefundsToo() {
		SimulatorPaymentGateway healthy = simulator(OFF, OFF, OFF, Duration.ZERO);
		String chargeReference = charged(healthy, "pm_card_visa");
		RefundRequest refused = refund(chargeReference, 100);
		RefundRequest erred = refund(chargeReference, 200);
		RefundRequest timedOut = refund(chargeReference, 300);

		GatewayResult refusal = simulator(ALWAYS, OFF, OFF, Duration.ZERO).refund(refused);
		GatewayResult error = simulator(OFF, ALWAYS, OFF, Duration.ZERO).refund(erred);
		GatewayResult timeout = simulator(OFF, OFF, ALWAYS, Duration.ZERO).refund(timedOut);

		assertThat(refusal).isInstanceOf(GatewayResult.NotAttempted.class);
		assertThat(refundRows(refused)).isZero();
		assertThat(error).isInstanceOf(GatewayResult.Unknown.class);
		assertThat(refundRows(erred)).isZero();
		assertThat(timeout).isInstanceOf(GatewayResult.Unknown.class);
		assertThat(refundRows(timedOut)).isEqualTo(1);
		assertThat(healthy.lookupRefund(timedOut)).isInstanceOf(GatewayResult.Approved.class);
	}

	@Test
	void concurrentChargesAndRefundsUnderOneKeyMakeOneLedgerEntryAndAllAnswerIt() throws Exception {
		SimulatorPaymentGateway simulator = simulator(OFF, OFF, OFF, Duration.ZERO);
		ChargeRequest charge = charge("pm_card_visa");
		int threads = 16;

		List<GatewayResult> charges = together(threads, () -> simulator.charge(charge));
		RefundRequest refund = refund(((GatewayResult.Approved) charges.get(0)).providerReference(), 300);
		List<GatewayResult> refunds = together(threads, () -> simulator.refund(refund));

		assertThat(charges).hasSize(threads).containsOnly(charges.get(0));
		assertThat(charges.get(0)).isInstanceOf(GatewayResult.Approved.class);
		assertThat(ledgerRows(charge)).isEqualTo(1);
		assertThat(refunds).hasSize(threads).containsOnly(refunds.get(0));
		assertThat(refunds.get(0)).isInstanceOf(GatewayResult.Approved.class);
		assertThat(refundRows(refund)).isEqualTo(1);
	}

	@Test
	void ledgerWriteInsideACallersTransactionCommitsOnItsOwn() {
		SimulatorPaymentGateway simulator = simulator(OFF, OFF, OFF, Duration.ZERO);
		ChargeRequest request = charge("pm_card_visa");
		TransactionTemplate caller = new TransactionTemplate(this.transactionManager);

		GatewayResult result = caller.execute((status) -> {
			status.setRollbackOnly();
			return simulator.charge(request);
		});

		assertThat(result).isInstanceOf(GatewayResult.Approved.class);
		assertThat(ledgerRows(request)).isEqualTo(1);
		assertThat(simulator.lookup(request)).isEqualTo(result);
	}

	@Test
	void oneCaptureKeySentTwiceAtOnceTakesItsAmountOnce() throws Exception {
		SimulatorPaymentGateway simulator = simulator(OFF, OFF, OFF, Duration.ZERO);
		PaymentId paymentId = PaymentId.random();
		GatewayResult authorized = simulator.charge(new ChargeRequest(paymentId.value(),
				ProviderAttempt.providerIdempotencyKey("payment", paymentId.value(), 1),
				new Money(1000, Currency.getInstance("EUR")), "pm_card_visa", "order-1", null, Instant.now(),
				CaptureMethod.MANUAL));
		String charge = ((GatewayResult.Approved) authorized).providerReference();
		UUID captureId = UUID.randomUUID();
		CaptureRequest capture = new CaptureRequest(captureId,
				ProviderAttempt.providerIdempotencyKey("capture", captureId, 1), charge,
				new Money(300, Currency.getInstance("EUR")), 1000);
		List<GatewayResult> results;
		// A capture of another key holds the charge's row (on a connection outside the
		// pool, which the two calls and the probe below use), so both calls under this
		// key are in PostgreSQL before either can finish: the re-send of a takeover while
		// the first send is still running.
		try (Connection holder = DriverManager.getConnection(this.database.getJdbcUrl(), this.database.getUsername(),
				Objects.requireNonNullElse(this.database.getPassword(), ""));
				ExecutorService pool = Executors.newFixedThreadPool(2)) {
			holder.setAutoCommit(false);
			try (PreparedStatement lock = holder
				.prepareStatement("SELECT 1 FROM simulated_provider_charges WHERE provider_reference = ? FOR UPDATE")) {
				lock.setString(1, charge);
				lock.executeQuery().close();
			}
			Future<GatewayResult> first = pool.submit(() -> simulator.capture(capture));
			Future<GatewayResult> second = pool.submit(() -> simulator.capture(capture));
			await().atMost(Duration.ofSeconds(10)).until(() -> sessionsWaitingOnALock() == 2);
			holder.rollback();
			results = List.of(first.get(10, TimeUnit.SECONDS), second.get(10, TimeUnit.SECONDS));
		}

		assertThat(results).allSatisfy((result) -> assertThat(result).isInstanceOf(GatewayResult.Approved.class));
		assertThat(results.get(1)).isEqualTo(results.get(0));
		assertThat(this.jdbc.sql("SELECT captured_total FROM simulated_provider_charges WHERE provider_reference = ?")
			.param(charge)
			.query(Long.class)
			.single()).as("captured under one provider idempotency key").isEqualTo(300);
		assertThat(this.jdbc.sql("SELECT count(*) FROM simulated_provider_captures WHERE charge_reference = ?")
			.param(charge)
			.query(Long.class)
			.single()).isEqualTo(1);
	}

	private long sessionsWaitingOnALock() {
		return this.jdbc.sql("""
				SELECT count(*) FROM pg_stat_activity
				WHERE datname = current_database() AND wait_event_type = 'Lock'""").query(Long.class).single();
	}

	/** Runs {@code call} on {@code threads} threads released together. */
	private static List<GatewayResult> together(int threads, Supplier<GatewayResult> call) throws Exception {
		CyclicBarrier start = new CyclicBarrier(threads);
		try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
			List<Future<GatewayResult>> futures = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				futures.add(pool.submit(() -> {
					start.await(10, TimeUnit.SECONDS);
					return call.get();
				}));
			}
			List<GatewayResult> results = new ArrayList<>();
			for (Future<GatewayResult> future : futures) {
				results.add(future.get(30, TimeUnit.SECONDS));
			}
			return results;
		}
	}

	private static String charged(SimulatorPaymentGateway simulator, String paymentMethod) {
		GatewayResult result = simulator.charge(charge(paymentMethod));
		assertThat(result).isInstanceOf(GatewayResult.Approved.class);
		return ((GatewayResult.Approved) result).providerReference();
	}

	/** A manual charge of 1500 EUR minor units, authorized; its provider reference. */
	private static String authorized(SimulatorPaymentGateway simulator) {
		PaymentId paymentId = PaymentId.random();
		GatewayResult result = simulator.charge(new ChargeRequest(paymentId.value(),
				ProviderAttempt.providerIdempotencyKey("payment", paymentId.value(), 1),
				new Money(1500, Currency.getInstance("EUR")), "pm_card_visa", "order-1", null, Instant.now(),
				CaptureMethod.MANUAL));
		assertThat(result).isInstanceOf(GatewayResult.Approved.class);
		return ((GatewayResult.Approved) result).providerReference();
	}

	private static RefundRequest refund(String chargeReference, long amount) {
		RefundId refundId = new RefundId(UUID.randomUUID());
		return new RefundRequest(refundId.value(),
				ProviderAttempt.providerIdempotencyKey("refund", refundId.value(), 1), chargeReference,
				new Money(amount, Currency.getInstance("EUR")), null);
	}

	private long refundRows(RefundRequest request) {
		return this.jdbc.sql("SELECT count(*) FROM simulated_provider_refunds WHERE provider_idempotency_key = ?")
			.param(request.providerIdempotencyKey())
			.query(Long.class)
			.single();
	}

	private SimulatorPaymentGateway simulator(Fault refuse, Fault errorBeforeCharge, Fault timeoutAfterCharge,
			Duration latency) {
		return new SimulatorPaymentGateway(this.jdbc, this.transactionManager, new SimulatorProperties(latency,
				Duration.ofSeconds(10), Duration.ZERO, refuse, errorBeforeCharge, timeoutAfterCharge),
				Clock.systemUTC());
	}

	private static ChargeRequest charge(String paymentMethod) {
		PaymentId paymentId = PaymentId.random();
		return new ChargeRequest(paymentId.value(),
				ProviderAttempt.providerIdempotencyKey("payment", paymentId.value(), 1),
				new Money(1500, Currency.getInstance("EUR")), paymentMethod, "order-1");
	}

	private long ledgerRows(ChargeRequest request) {
		return this.jdbc.sql("SELECT count(*) FROM simulated_provider_charges WHERE provider_idempotency_key = ?")
			.param(request.providerIdempotencyKey())
			.query(Long.class)
			.single();
	}

}
