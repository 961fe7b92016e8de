package dev.payonce.gateway.simulator;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

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
import org.springframework.transaction.support.TransactionTemplate;

import dev.payonce.gateway.simulator.SimulatorProperties.Fault;
import dev.payonce.payment.ChargeRequest;
import dev.payonce.payment.GatewayResult;
import dev.payonce.payment.PaymentGateway;

/**
 * A simulated payment provider with its own ledger, active unless
 * {@code payonce.gateway.provider} names another adapter (DESIGN.md section 5).
 *
 * <p>
 * Like a real provider it charges at most once per provider idempotency key: the ledger
 * row is inserted with {@code ON CONFLICT DO NOTHING} in the simulator's own transaction,
 * which commits before the call returns (so the charge survives a crash of the caller),
 * and a repeated key returns the first charge's result. Payment methods (after Stripe's
 * test tokens): {@code pm_card_chargeDeclined} declines with {@code card_declined},
 * {@code pm_card_chargeDeclinedInsufficientFunds} with {@code insufficient_funds}; any
 * other token is approved. Faults come from {@link SimulatorProperties}.
 */
@Component
@ConditionalOnProperty(name = "payonce.gateway.provider", havingValue = "simulator", matchIfMissing = true)
class SimulatorPaymentGateway implements PaymentGateway {

	private static final Logger log = LoggerFactory.getLogger(SimulatorPaymentGateway.class);

	private static final Map<String, String> DECLINES = Map.of("pm_card_chargeDeclined", "card_declined",
			"pm_card_chargeDeclinedInsufficientFunds", "insufficient_funds");

	private final SecureRandom random = new SecureRandom();

	private final AtomicLong charges = new AtomicLong();

	private final JdbcClient jdbc;

	private final TransactionTemplate ownTransaction;

	private final SimulatorProperties properties;

	private final Clock clock;

	SimulatorPaymentGateway(JdbcClient jdbc, PlatformTransactionManager transactionManager,
			SimulatorProperties properties, Clock clock) {
		this.jdbc = jdbc;
		this.ownTransaction = new TransactionTemplate(transactionManager);
		this.ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
		this.properties = properties;
		this.clock = clock;
	}

	@Override
	public GatewayResult charge(ChargeRequest request) {
		long call = this.charges.incrementAndGet();
		long started = System.nanoTime();
		if (meets(this.properties.refuse(), call)) {
			return new GatewayResult.NotAttempted("simulated refusal before processing");
		}
		if (meets(this.properties.errorBeforeCharge(), call)) {
			return new GatewayResult.Unknown("simulated 5xx before charging");
		}
		if (!waitWithinTimeout(this.properties.latency(), started)) {
			return new GatewayResult.Unknown("simulated client timeout before the provider acted");
		}
		Charge charge;
		try {
			charge = this.ownTransaction.execute((status) -> chargeOnce(request));
		}
		catch (DataAccessException | TransactionException ex) {
			// The ledger shares the application's database and pool: when it cannot be
			// reached, or the write's commit is in doubt, the simulated provider answers
			// as
			// a real one with an internal failure would (a 5xx: outcome unknown).
			log.warn("Simulated provider could not reach its ledger: {}", ex.getClass().getSimpleName());
			return new GatewayResult.Unknown("simulated provider failed: ledger unreachable");
		}
		if (charge == null) {
			return new GatewayResult.Unknown("simulated provider returned nothing");
		}
		if (meets(this.properties.timeoutAfterCharge(), call)) {
			return new GatewayResult.Unknown("simulated timeout after charging");
		}
		if (charge.created() && !waitWithinTimeout(this.properties.delayAfterCharge(), started)) {
			return new GatewayResult.Unknown("simulated client timeout after charging");
		}
		return charge.result();
	}

	@Override
	public GatewayResult lookup(String providerIdempotencyKey) {
		if (!waitWithinTimeout(this.properties.latency(), System.nanoTime())) {
			return new GatewayResult.Unknown("simulated client timeout before the provider answered a lookup");
		}
		try {
			return lookupLedger(providerIdempotencyKey);
		}
		catch (DataAccessException ex) {
			log.warn("Simulated provider could not reach its ledger: {}", ex.getClass().getSimpleName());
			return new GatewayResult.Unknown("simulated provider failed: ledger unreachable");
		}
	}

	private GatewayResult lookupLedger(String providerIdempotencyKey) {
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

	@Override
	public Duration worstCaseCallDuration() {
		return this.properties.timeout();
	}

	private Charge chargeOnce(ChargeRequest request) {
		@Nullable String declineCode = DECLINES.get(request.paymentMethod());
		Instant now = this.clock.instant();
		int inserted = this.jdbc
			.sql("""
					INSERT INTO simulated_provider_charges
					    (provider_reference, provider_idempotency_key, amount, currency, payment_method, outcome, decline_code, created_at)
					VALUES (:reference, :key, :amount, :currency, :paymentMethod, :outcome, :declineCode, :now)
					ON CONFLICT (provider_idempotency_key) DO NOTHING
					""")
			.param("reference", "sim_ch_" + HexFormat.of().formatHex(randomBytes()))
			.param("key", request.providerIdempotencyKey())
			.param("amount", request.amount().minorUnits())
			.param("currency", request.amount().currency().getCurrencyCode())
			.param("paymentMethod", request.paymentMethod())
			.param("outcome", (declineCode != null) ? "DECLINED" : "SUCCEEDED")
			.param("declineCode", declineCode)
			.param("now", now.atOffset(ZoneOffset.UTC))
			.update();
		if (inserted == 0) {
			log.info("Simulated provider deduplicated a charge by its provider idempotency key");
		}
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
		return new Charge(result, inserted == 1);
	}

	private static boolean sameParameters(ChargeRequest request, long amount, String currency) {
		return amount == request.amount().minorUnits()
				&& currency.equals(request.amount().currency().getCurrencyCode());
	}

	private static GatewayResult outcome(String reference, String outcome, @Nullable String declineCode) {
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

	private byte[] randomBytes() {
		byte[] bytes = new byte[12];
		this.random.nextBytes(bytes);
		return bytes;
	}

	/** A ledger charge and whether this call created it. */
	private record Charge(GatewayResult result, boolean created) {
	}

}
