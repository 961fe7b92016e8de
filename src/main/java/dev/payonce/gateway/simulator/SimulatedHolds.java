package dev.payonce.gateway.simulator;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.provider.CaptureRequest;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.VoidRequest;

/**
 * The simulated provider's ledger of holds: the captures and voids of manual charges,
 * each deduplicated by its provider idempotency key (docs/design.md section 15).
 * {@link SimulatorPaymentGateway} applies its faults around these writes. Thread-safe.
 */
final class SimulatedHolds {

	private static final Logger log = LoggerFactory.getLogger(SimulatorPaymentGateway.class);

	private final JdbcClient jdbc;

	private final Clock clock;

	SimulatedHolds(JdbcClient jdbc, Clock clock) {
		this.jdbc = jdbc;
		this.clock = clock;
	}

	/** The capture saved under the key, or not attempted if there is none. */
	GatewayResult findCapture(String providerIdempotencyKey) {
		return this.jdbc.sql("""
				SELECT provider_reference, outcome, decline_code
				FROM simulated_provider_captures WHERE provider_idempotency_key = :key
				""")
			.param("key", providerIdempotencyKey)
			.query((rs, row) -> SimulatorPaymentGateway.outcome(rs.getString("provider_reference"),
					rs.getString("outcome"), rs.getString("decline_code")))
			.optional()
			.orElseGet(() -> new GatewayResult.NotAttempted("no capture under this provider idempotency key"));
	}

	/** The void saved under the key, or not attempted if there is none. */
	GatewayResult findVoid(String providerIdempotencyKey) {
		return this.jdbc.sql("""
				SELECT provider_reference, outcome, decline_code
				FROM simulated_provider_voids WHERE provider_idempotency_key = :key
				""")
			.param("key", providerIdempotencyKey)
			.query((rs, row) -> SimulatorPaymentGateway.outcome(rs.getString("provider_reference"),
					rs.getString("outcome"), rs.getString("decline_code")))
			.optional()
			.orElseGet(() -> new GatewayResult.NotAttempted("no void under this provider idempotency key"));
	}

	/**
	 * Voids once per provider idempotency key, in one auto-committed statement that marks
	 * the charge voided by a conditional {@code UPDATE}, judged after any capture of it
	 * that committed first: declined with {@code charge_not_voidable} unless the charge
	 * is an approved manual one, not voided, with something left to capture. A repeated
	 * key returns the first void's result.
	 */
	SimulatorPaymentGateway.Entry voidOnce(VoidRequest request, String reference) {
		Optional<GatewayResult> inserted = this.jdbc.sql("""
				WITH released AS (
				    UPDATE simulated_provider_charges SET voided_at = :now
				    WHERE provider_reference = :charge AND capture_method = 'manual' AND outcome = 'SUCCEEDED'
				      AND voided_at IS NULL AND captured_total < amount
				      AND NOT EXISTS (SELECT 1 FROM simulated_provider_voids WHERE provider_idempotency_key = :key)
				    RETURNING provider_reference)
				INSERT INTO simulated_provider_voids
				    (provider_reference, provider_idempotency_key, charge_reference, outcome, decline_code, created_at)
				SELECT :reference, :key, :charge,
				       CASE WHEN EXISTS (SELECT 1 FROM released) THEN 'SUCCEEDED' ELSE 'DECLINED' END,
				       CASE WHEN EXISTS (SELECT 1 FROM released) THEN NULL ELSE 'charge_not_voidable' END, :now
				ON CONFLICT (provider_idempotency_key) DO NOTHING
				RETURNING provider_reference, outcome, decline_code
				""")
			.param("reference", reference)
			.param("key", request.providerIdempotencyKey())
			.param("charge", request.chargeReference())
			.param("now", this.clock.instant().atOffset(ZoneOffset.UTC))
			.query((rs, row) -> SimulatorPaymentGateway.outcome(rs.getString("provider_reference"),
					rs.getString("outcome"), rs.getString("decline_code")))
			.optional();
		if (inserted.isPresent()) {
			return new SimulatorPaymentGateway.Entry(inserted.get(), true);
		}
		log.info("Simulated provider deduplicated a void by its provider idempotency key");
		return new SimulatorPaymentGateway.Entry(findVoid(request.providerIdempotencyKey()), false);
	}

	/**
	 * Captures once per provider idempotency key, in one auto-committed statement: it
	 * adds the capture to the charge's {@code captured_total} and its key to the charge's
	 * {@code capture_keys} by a conditional {@code UPDATE}, which PostgreSQL re-checks
	 * against the newest row version when another capture of the charge committed first.
	 * So concurrent captures of one charge are judged one after the other without holding
	 * a lock between statements, and a key sent twice at once (a re-send while the first
	 * is still running) takes its amount once: the check that the key took nothing is on
	 * the row itself, because a subquery on another table keeps the statement's first
	 * snapshot after the lock wait
	 * (https://www.postgresql.org/docs/15/transaction-iso.html, "Read Committed Isolation
	 * Level"). Declined with {@code charge_not_capturable} unless the charge is an
	 * approved manual one not voided, {@code authorization_expired} once its hold window
	 * (counted from the charge) has passed, and {@code amount_too_large} when its
	 * captures would exceed its amount. A repeated key returns the first capture's
	 * result.
	 */
	SimulatorPaymentGateway.Entry captureOnce(CaptureRequest request, Duration window, String reference) {
		Optional<GatewayResult> inserted = this.jdbc
			.sql("""
					WITH taken AS (
					    UPDATE simulated_provider_charges
					    SET captured_total = captured_total + :amount, capture_keys = capture_keys || CAST(:key AS text)
					    WHERE provider_reference = :charge AND capture_method = 'manual' AND outcome = 'SUCCEEDED'
					      AND voided_at IS NULL AND created_at + CAST(:window AS interval) > :now
					      AND captured_total + :amount <= amount AND NOT (CAST(:key AS text) = ANY (capture_keys))
					      AND NOT EXISTS (SELECT 1 FROM simulated_provider_captures WHERE provider_idempotency_key = :key)
					    RETURNING provider_reference),
					verdict AS (
					    SELECT CASE
					        WHEN EXISTS (SELECT 1 FROM taken) THEN NULL
					        WHEN c.provider_reference IS NULL OR c.capture_method <> 'manual' OR c.outcome <> 'SUCCEEDED'
					             OR c.voided_at IS NOT NULL THEN 'charge_not_capturable'
					        WHEN c.created_at + CAST(:window AS interval) <= :now THEN 'authorization_expired'
					        ELSE 'amount_too_large'
					    END AS decline_code
					    FROM (SELECT 1) AS one
					    LEFT JOIN simulated_provider_charges c ON c.provider_reference = :charge)
					INSERT INTO simulated_provider_captures
					    (provider_reference, provider_idempotency_key, charge_reference, amount, outcome, decline_code, created_at)
					SELECT :reference, :key, :charge, :amount,
					       CASE WHEN decline_code IS NULL THEN 'SUCCEEDED' ELSE 'DECLINED' END, decline_code, :now
					FROM verdict
					ON CONFLICT (provider_idempotency_key) DO NOTHING
					RETURNING provider_reference, outcome, decline_code
					""")
			.param("reference", reference)
			.param("key", request.providerIdempotencyKey())
			.param("charge", request.chargeReference())
			.param("amount", request.amount().minorUnits())
			.param("window", window.toSeconds() + " seconds")
			.param("now", this.clock.instant().atOffset(ZoneOffset.UTC))
			.query((rs, row) -> SimulatorPaymentGateway.outcome(rs.getString("provider_reference"),
					rs.getString("outcome"), rs.getString("decline_code")))
			.optional();
		if (inserted.isPresent()) {
			return new SimulatorPaymentGateway.Entry(inserted.get(), true);
		}
		log.info("Simulated provider deduplicated a capture by its provider idempotency key");
		GatewayResult result = this.jdbc.sql("""
				SELECT provider_reference, amount, charge_reference, outcome, decline_code
				FROM simulated_provider_captures WHERE provider_idempotency_key = :key
				""")
			.param("key", request.providerIdempotencyKey())
			.query((rs,
					row) -> (rs.getLong("amount") == request.amount().minorUnits()
							&& rs.getString("charge_reference").equals(request.chargeReference()))
									? SimulatorPaymentGateway.outcome(rs.getString("provider_reference"),
											rs.getString("outcome"), rs.getString("decline_code"))
									: new GatewayResult.NotAttempted(
											"provider idempotency key reused with different parameters"))
			.single();
		return new SimulatorPaymentGateway.Entry(result, false);
	}

}
