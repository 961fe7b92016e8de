package dev.payonce.gateway.simulator;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.payonce.gateway.simulator.SimulatorProperties.Fault;
import dev.payonce.provider.CaptureRequest;
import dev.payonce.provider.ChargeRequest;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.provider.RefundRequest;
import dev.payonce.provider.VoidRequest;

/**
 * A simulated payment provider with its own ledger, active unless
 * {@code payonce.gateway.provider} names another adapter (docs/design.md section 5).
 *
 * <p>
 * Like a real provider it charges at most once per provider idempotency key: the ledger
 * row is inserted with {@code ON CONFLICT DO NOTHING} in the simulator's own transaction,
 * which commits before the call returns (so the charge survives a crash of the caller),
 * and a repeated key returns the first charge's result. Payment methods (after Stripe's
 * test tokens): {@code pm_card_chargeDeclined} declines with {@code card_declined},
 * {@code pm_card_chargeDeclinedInsufficientFunds} with {@code insufficient_funds}; any
 * other token is approved; a manual payment's charge is only authorized
 * ({@code capture_method} {@code manual}). Refunds work the same way in their own ledger,
 * {@code simulated_provider_refunds}, deduplicated by the refund's provider idempotency
 * key, and so do captures, in {@code simulated_provider_captures}. Faults come from
 * {@link SimulatorProperties} and apply to charges and refunds alike; lookups of either
 * take the configured latency. When its ledger (which shares the application's database
 * and connection pool) cannot be reached, a call or lookup answers an unknown outcome, as
 * a real provider's internal failure would, rather than throwing.
 */
@Component
@ConditionalOnProperty(name = "payonce.gateway.provider", havingValue = "simulator", matchIfMissing = true)
class SimulatorPaymentGateway implements PaymentGateway {

	private static final Logger log = LoggerFactory.getLogger(SimulatorPaymentGateway.class);

	private static final Map<String, String> DECLINES = Map.of("pm_card_chargeDeclined", "card_declined",
			"pm_card_chargeDeclinedInsufficientFunds", "insufficient_funds");

	/** Charges made with this token are approved, and every refund of them declined. */
	private static final String REFUND_FAILS = "pm_card_refundFail";

	private final SecureRandom random = new SecureRandom();

	private final AtomicLong calls = new AtomicLong();

	private final JdbcClient jdbc;

	private final TransactionTemplate ownTransaction;

	private volatile SimulatorProperties properties;

	private final Clock clock;

	private final SimulatedHolds holds;

	SimulatorPaymentGateway(JdbcClient jdbc, PlatformTransactionManager transactionManager,
			SimulatorProperties properties, Clock clock) {
		this.jdbc = jdbc;
		this.ownTransaction = new TransactionTemplate(transactionManager);
		this.ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
		this.properties = properties;
		this.clock = clock;
		this.holds = new SimulatedHolds(jdbc, clock);
	}

	/**
	 * Replaces the faults and timings this simulator was started with, and counts
	 * provider calls from zero again (so {@code every} counts from this call on). A seam
	 * for tests only, which share one application context between classes that need
	 * different faults: no application class calls it. Set it while no provider call is
	 * under way.
	 * @param properties the new faults and timings
	 */
	void reconfigure(SimulatorProperties properties) {
		this.properties = properties;
		this.calls.set(0);
	}

	@Override
	public GatewayResult charge(ChargeRequest request) {
		return call(() -> chargeOnce(request));
	}

	@Override
	public GatewayResult refund(RefundRequest request) {
		return call(() -> refundOnce(request));
	}

	@Override
	public GatewayResult capture(CaptureRequest request) {
		return call(
				() -> this.holds.captureOnce(request, this.properties.authorizationWindow(), newReference("sim_cp_")));
	}

	@Override
	public GatewayResult lookupCapture(CaptureRequest request) {
		return lookupWithFaults(() -> this.holds.findCapture(request.providerIdempotencyKey()));
	}

	@Override
	public GatewayResult voidAuthorization(VoidRequest request) {
		return call(() -> this.holds.voidOnce(request, newReference("sim_vd_")));
	}

	@Override
	public GatewayResult lookupVoid(VoidRequest request) {
		return lookupWithFaults(() -> this.holds.findVoid(request.providerIdempotencyKey()));
	}

	/**
	 * One provider call with every fault: the same for charges and refunds, and counted
	 * together for {@code every}.
	 */
	private GatewayResult call(Supplier<Entry> ledgerWrite) {
		long call = this.calls.incrementAndGet();
		long started = System.nanoTime();
		if (meets(this.properties.refuse(), call)) {
			return new GatewayResult.NotAttempted("simulated refusal before processing");
		}
		if (meets(this.properties.errorBeforeCharge(), call)) {
			return new GatewayResult.Unknown("simulated 5xx before acting");
		}
		if (!waitWithinTimeout(this.properties.latency(), started)) {
			return new GatewayResult.Unknown("simulated client timeout before the provider acted");
		}
		Entry entry;
		try {
			// Outside a transaction (the engine's act step) the ledger write is one
			// auto-committed statement: no BEGIN and COMMIT round trips for the
			// simulator's own bookkeeping. Inside a caller's transaction it still commits
			// on its own.
			entry = TransactionSynchronizationManager.isActualTransactionActive()
					? this.ownTransaction.execute((status) -> ledgerWrite.get()) : ledgerWrite.get();
		}
		catch (DataAccessException | TransactionException ex) {
			// The ledger shares the application's database and pool: when it cannot be
			// reached, or the write's commit is in doubt, the simulated provider answers
			// as a real one with an internal failure would (a 5xx: outcome unknown).
			log.warn("Simulated provider could not reach its ledger: {}", ex.getClass().getSimpleName());
			return new GatewayResult.Unknown("simulated provider failed: ledger unreachable");
		}
		if (entry == null) {
			return new GatewayResult.Unknown("simulated provider returned nothing");
		}
		if (meets(this.properties.timeoutAfterCharge(), call)) {
			return new GatewayResult.Unknown("simulated timeout after acting");
		}
		if (entry.created() && !waitWithinTimeout(this.properties.delayAfterCharge(), started)) {
			return new GatewayResult.Unknown("simulated client timeout after acting");
		}
		return entry.result();
	}

	@Override
	public GatewayResult lookup(ChargeRequest request) {
		return lookupWithFaults(() -> lookupCharge(request.providerIdempotencyKey()));
	}

	@Override
	public GatewayResult lookupRefund(RefundRequest request) {
		return lookupWithFaults(() -> lookupRefundEntry(request.providerIdempotencyKey()));
	}

	/**
	 * One lookup, charge or refund: it takes the configured latency (bounded by the
	 * timeout) and answers an unknown outcome, as a real provider's 5xx, when the ledger
	 * cannot be reached.
	 */
	private GatewayResult lookupWithFaults(Supplier<GatewayResult> ledgerRead) {
		if (!waitWithinTimeout(this.properties.latency(), System.nanoTime())) {
			return new GatewayResult.Unknown("simulated client timeout before the provider answered a lookup");
		}
		try {
			return ledgerRead.get();
		}
		catch (DataAccessException ex) {
			log.warn("Simulated provider could not reach its ledger: {}", ex.getClass().getSimpleName());
			return new GatewayResult.Unknown("simulated provider failed: ledger unreachable");
		}
	}

	private GatewayResult lookupCharge(String providerIdempotencyKey) {
		return this.jdbc.sql("""
				SELECT provider_reference, amount, currency, outcome, decline_code
				FROM simulated_provider_charges WHERE provider_idempotency_key = :key
				""")
			.param("key", providerIdempotencyKey)
			.query((rs, row) -> outcome(rs.getString("provider_reference"), rs.getString("outcome"),
					rs.getString("decline_code")))
			.optional()
			.orElseGet(() -> new GatewayResult.NotAttempted("no charge under this provider idempotency key"));
	}

	private GatewayResult lookupRefundEntry(String providerIdempotencyKey) {
		return this.jdbc.sql("""
				SELECT provider_reference, outcome, decline_code
				FROM simulated_provider_refunds WHERE provider_idempotency_key = :key
				""")
			.param("key", providerIdempotencyKey)
			.query((rs, row) -> outcome(rs.getString("provider_reference"), rs.getString("outcome"),
					rs.getString("decline_code")))
			.optional()
			.orElseGet(() -> new GatewayResult.NotAttempted("no refund under this provider idempotency key"));
	}

	/** The configured hold window of a manual payment's authorization. */
	@Override
	public Duration authorizationWindow() {
		return this.properties.authorizationWindow();
	}

	@Override
	public Duration worstCaseCallDuration() {
		return this.properties.timeout();
	}

	/**
	 * One auto-committed statement inserts the charge unless the key has one and returns
	 * it; only a repeated key reads the charge the key already has (committed: the insert
	 * waited for it).
	 */
	private Entry chargeOnce(ChargeRequest request) {
		@Nullable String declineCode = DECLINES.get(request.paymentMethod());
		Instant now = this.clock.instant();
		Optional<GatewayResult> inserted = this.jdbc
			.sql("""
					INSERT INTO simulated_provider_charges
					    (provider_reference, provider_idempotency_key, amount, currency, payment_method, outcome, decline_code, created_at, capture_method)
					VALUES (:reference, :key, :amount, :currency, :paymentMethod, :outcome, :declineCode, :now, :captureMethod)
					ON CONFLICT (provider_idempotency_key) DO NOTHING
					RETURNING provider_reference, outcome, decline_code
					""")
			.param("reference", "sim_ch_" + HexFormat.of().formatHex(randomBytes()))
			.param("key", request.providerIdempotencyKey())
			.param("amount", request.amount().minorUnits())
			.param("currency", request.amount().currency().getCurrencyCode())
			.param("paymentMethod", request.paymentMethod())
			.param("outcome", (declineCode != null) ? "DECLINED" : "SUCCEEDED")
			.param("declineCode", declineCode)
			.param("now", now.atOffset(ZoneOffset.UTC))
			.param("captureMethod", request.captureMethod().wireName())
			.query((rs, row) -> outcome(rs.getString("provider_reference"), rs.getString("outcome"),
					rs.getString("decline_code")))
			.optional();
		if (inserted.isPresent()) {
			return new Entry(inserted.get(), true);
		}
		log.info("Simulated provider deduplicated a charge by its provider idempotency key");
		GatewayResult result = this.jdbc.sql("""
				SELECT provider_reference, amount, currency, outcome, decline_code
				FROM simulated_provider_charges WHERE provider_idempotency_key = :key
				""")
			.param("key", request.providerIdempotencyKey())
			.query((rs, row) -> sameParameters(request, rs.getLong("amount"), rs.getString("currency"))
					? outcome(rs.getString("provider_reference"), rs.getString("outcome"), rs.getString("decline_code"))
					// A real provider answers 400 for a reused idempotency key with other
					// parameters.
					: new GatewayResult.NotAttempted("provider idempotency key reused with different parameters"))
			.single();
		return new Entry(result, false);
	}

	private static boolean sameParameters(ChargeRequest request, long amount, String currency) {
		return amount == request.amount().minorUnits()
				&& currency.equals(request.amount().currency().getCurrencyCode());
	}

	static GatewayResult outcome(String reference, String outcome, @Nullable String declineCode) {
		if ("DECLINED".equals(outcome)) {
			return new GatewayResult.Declined(reference, (declineCode != null) ? declineCode : "card_declined");
		}
		return new GatewayResult.Approved(reference);
	}

	private static boolean meets(Fault fault, long call) {
		return (fault.every() > 0 && call % fault.every() == 0)
				|| (fault.rate() > 0 && ThreadLocalRandom.current().nextDouble() < fault.rate());
	}

	/**
	 * Waits {@code delay}, but never past the call's timeout; false if the timeout ends
	 * it.
	 */
	private boolean waitWithinTimeout(Duration delay, long startedNanos) {
		if (delay.isZero()) {
			return true;
		}
		Duration left = this.properties.timeout().minusNanos(System.nanoTime() - startedNanos);
		if (!left.isPositive()) {
			return false;
		}
		boolean timedOut = delay.compareTo(left) >= 0;
		try {
			Thread.sleep(timedOut ? left : delay);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		return !timedOut;
	}

	private String newReference(String prefix) {
		return prefix + HexFormat.of().formatHex(randomBytes());
	}

	private byte[] randomBytes() {
		byte[] bytes = new byte[12];
		this.random.nextBytes(bytes);
		return bytes;
	}

	/**
	 * Refunds once per provider idempotency key. Refunds of a charge made with
	 * {@code pm_card_refundFail} are declined ({@code refund_failed}, after Stripe's test
	 * token), and so is a refund of a charge the ledger does not hold
	 * ({@code charge_not_found}).
	 */
	private Entry refundOnce(RefundRequest request) {
		// One auto-committed statement: the charge's payment method decides the outcome,
		// the refund is inserted unless the key has one, and returned.
		Optional<GatewayResult> inserted = this.jdbc
			.sql("""
					INSERT INTO simulated_provider_refunds
					    (provider_reference, provider_idempotency_key, charge_reference, amount, currency, outcome, decline_code, created_at)
					SELECT :reference, :key, :charge, :amount, :currency,
					       CASE WHEN c.payment_method IS NULL OR c.payment_method = :refundFails THEN 'DECLINED' ELSE 'SUCCEEDED' END,
					       CASE WHEN c.payment_method IS NULL THEN 'charge_not_found'
					            WHEN c.payment_method = :refundFails THEN 'refund_failed' END,
					       :now
					FROM (SELECT 1) AS one
					LEFT JOIN simulated_provider_charges c ON c.provider_reference = :charge
					ON CONFLICT (provider_idempotency_key) DO NOTHING
					RETURNING provider_reference, outcome, decline_code
					""")
			.param("reference", "sim_re_" + HexFormat.of().formatHex(randomBytes()))
			.param("key", request.providerIdempotencyKey())
			.param("charge", request.chargeReference())
			.param("amount", request.amount().minorUnits())
			.param("currency", request.amount().currency().getCurrencyCode())
			.param("refundFails", REFUND_FAILS)
			.param("now", this.clock.instant().atOffset(ZoneOffset.UTC))
			.query((rs, row) -> outcome(rs.getString("provider_reference"), rs.getString("outcome"),
					rs.getString("decline_code")))
			.optional();
		if (inserted.isPresent()) {
			return new Entry(inserted.get(), true);
		}
		log.info("Simulated provider deduplicated a refund by its provider idempotency key");
		GatewayResult result = this.jdbc.sql("""
				SELECT provider_reference, amount, charge_reference, outcome, decline_code
				FROM simulated_provider_refunds WHERE provider_idempotency_key = :key
				""")
			.param("key", request.providerIdempotencyKey())
			.query((rs,
					row) -> (rs.getLong("amount") == request.amount().minorUnits()
							&& rs.getString("charge_reference").equals(request.chargeReference()))
									? outcome(rs.getString("provider_reference"), rs.getString("outcome"),
											rs.getString("decline_code"))
									: new GatewayResult.NotAttempted(
											"provider idempotency key reused with different parameters"))
			.single();
		return new Entry(result, false);
	}

	/** A ledger entry (charge or refund) and whether this call created it. */
	record Entry(GatewayResult result, boolean created) {
	}

}
