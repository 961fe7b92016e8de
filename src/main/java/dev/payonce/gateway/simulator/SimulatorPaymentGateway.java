package dev.payonce.gateway.simulator;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.payonce.payment.ChargeRequest;
import dev.payonce.payment.GatewayResult;
import dev.payonce.payment.PaymentGateway;

/**
 * A simulated payment provider with its own ledger, active unless
 * {@code payonce.gateway.provider} names another adapter.
 *
 * <p>
 * Like a real provider it charges at most once per provider idempotency key: the ledger
 * row is inserted with {@code ON CONFLICT DO NOTHING} in the simulator's own transaction,
 * and a repeated key returns the first charge's result. Payment methods (after Stripe's
 * test tokens): {@code pm_card_chargeDeclined} declines with {@code card_declined},
 * {@code pm_card_chargeDeclinedInsufficientFunds} with {@code insufficient_funds}; any
 * other token is approved.
 */
@Component
@ConditionalOnProperty(name = "payonce.gateway.provider", havingValue = "simulator", matchIfMissing = true)
class SimulatorPaymentGateway implements PaymentGateway {

	private static final Logger log = LoggerFactory.getLogger(SimulatorPaymentGateway.class);

	private static final Map<String, String> DECLINES = Map.of("pm_card_chargeDeclined", "card_declined",
			"pm_card_chargeDeclinedInsufficientFunds", "insufficient_funds");

	private final SecureRandom random = new SecureRandom();

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
		if (!simulateLatency()) {
			return new GatewayResult.Unknown("interrupted while waiting for the simulated provider");
		}
		GatewayResult result = this.ownTransaction.execute((status) -> chargeOnce(request));
		return (result != null) ? result : new GatewayResult.Unknown("simulator returned nothing");
	}

	private GatewayResult chargeOnce(ChargeRequest request) {
		@Nullable String declineCode = DECLINES.get(request.paymentMethod());
		String reference = "sim_ch_" + HexFormat.of().formatHex(bytes());
		Instant now = this.clock.instant();
		int inserted = this.jdbc
			.sql("""
					INSERT INTO simulated_provider_charges
					    (provider_reference, provider_idempotency_key, amount, currency, payment_method, outcome, decline_code, created_at)
					VALUES (:reference, :key, :amount, :currency, :paymentMethod, :outcome, :declineCode, :now)
					ON CONFLICT (provider_idempotency_key) DO NOTHING
					""")
			.param("reference", reference)
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
		return this.jdbc.sql("""
				SELECT provider_reference, amount, currency, outcome, decline_code
				FROM simulated_provider_charges WHERE provider_idempotency_key = :key
				""")
			.param("key", request.providerIdempotencyKey())
			.query((rs, row) -> result(request, rs.getString("provider_reference"), rs.getLong("amount"),
					rs.getString("currency"), rs.getString("outcome"), rs.getString("decline_code")))
			.single();
	}

	private static GatewayResult result(ChargeRequest request, String reference, long amount, String currency,
			String outcome, @Nullable String declineCode) {
		if (amount != request.amount().minorUnits()
				|| !currency.equals(request.amount().currency().getCurrencyCode())) {
			// A real provider answers 400 for a reused idempotency key with other
			// parameters.
			return new GatewayResult.NotAttempted("provider idempotency key reused with different parameters");
		}
		if ("DECLINED".equals(outcome)) {
			return new GatewayResult.Declined(reference, (declineCode != null) ? declineCode : "card_declined");
		}
		return new GatewayResult.Approved(reference);
	}

	private byte[] bytes() {
		byte[] bytes = new byte[12];
		this.random.nextBytes(bytes);
		return bytes;
	}

	private boolean simulateLatency() {
		if (this.properties.latency().isZero()) {
			return true;
		}
		try {
			Thread.sleep(this.properties.latency());
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
