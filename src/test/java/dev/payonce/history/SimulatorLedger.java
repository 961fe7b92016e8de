package dev.payonce.history;

import java.util.HashMap;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The simulated provider's ledger ({@code simulated_provider_charges},
 * {@code simulated_provider_refunds}) as read once at the end of a soak. A payment's
 * charges are those under any of its provider idempotency keys
 * ({@code payonce-payment-<id>}, then {@code -g<n>} per key generation, docs/design.md
 * section 5), a refund's those under {@code payonce-refund-<id>...}; only
 * {@code SUCCEEDED} entries count. Each table is read once, whatever the number of keys.
 */
public final class SimulatorLedger implements ProviderLedger {

	private final Map<String, Long> charges = new HashMap<>();

	private final Map<String, Long> refunds = new HashMap<>();

	private final Map<String, Long> refunded = new HashMap<>();

	/**
	 * Reads the ledger.
	 * @param jdbc the application's database, which holds the simulator's ledger
	 */
	public SimulatorLedger(JdbcClient jdbc) {
		read(jdbc, """
				SELECT substring(provider_idempotency_key FROM 17 FOR 36), count(*) FROM simulated_provider_charges
				WHERE outcome = 'SUCCEEDED' AND provider_idempotency_key LIKE 'payonce-payment-%' GROUP BY 1""",
				this.charges);
		read(jdbc, """
				SELECT substring(provider_idempotency_key FROM 16 FOR 36), count(*) FROM simulated_provider_refunds
				WHERE outcome = 'SUCCEEDED' AND provider_idempotency_key LIKE 'payonce-refund-%' GROUP BY 1""",
				this.refunds);
		read(jdbc,
				"""
						SELECT substring(c.provider_idempotency_key FROM 17 FOR 36), sum(r.amount)
						FROM simulated_provider_refunds r JOIN simulated_provider_charges c ON c.provider_reference = r.charge_reference
						WHERE r.outcome = 'SUCCEEDED' AND c.provider_idempotency_key LIKE 'payonce-payment-%' GROUP BY 1""",
				this.refunded);
	}

	private static void read(JdbcClient jdbc, String sql, Map<String, Long> into) {
		jdbc.sql(sql).query((row, n) -> into.put(row.getString(1), row.getLong(2))).list();
	}

	@Override
	public long charges(String paymentId) {
		return this.charges.getOrDefault(paymentId, 0L);
	}

	@Override
	public long refunds(String refundId) {
		return this.refunds.getOrDefault(refundId, 0L);
	}

	@Override
	public long refunded(String paymentId) {
		return this.refunded.getOrDefault(paymentId, 0L);
	}

}
