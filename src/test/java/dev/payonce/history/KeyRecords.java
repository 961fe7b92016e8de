package dev.payonce.history;

import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The database's side of a soak's end state: for each idempotency key of the run, its
 * record ({@code idempotency_records}) and the payment or refund it names, joined with a
 * {@link ProviderLedger} into the {@link KeyOutcome} that {@link HistoryChecker} takes. A
 * refund's key counts the provider's refunds of that refund as its "charges"; both kinds
 * carry their payment's amount (if it was charged) and what the provider refunded of it.
 */
public final class KeyRecords {

	private static final String RECORDS = """
			SELECT r.idempotency_key, r.status = 'IN_PROGRESS' AS in_progress, f.id AS refund_id,
			       paid.id AS payment_id, coalesce(paid.amount, 0) AS amount
			FROM idempotency_records r
			LEFT JOIN payments p ON p.id = r.resource_id
			LEFT JOIN refunds f ON f.id = r.resource_id
			LEFT JOIN payments paid ON paid.id = coalesce(f.payment_id, p.id)
			WHERE r.idempotency_key LIKE ?""";

	private final JdbcClient jdbc;

	/**
	 * @param jdbc the application's database
	 */
	public KeyRecords(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * The end state of every key matching one of the patterns.
	 * @param ledger the provider's side
	 * @param keyPatterns SQL {@code LIKE} patterns of the run's idempotency keys
	 * @return each key's outcome; a key with no record is absent (it holds nothing)
	 */
	public Map<String, KeyOutcome> outcomes(ProviderLedger ledger, String... keyPatterns) {
		Map<String, KeyOutcome> outcomes = new HashMap<>();
		for (String pattern : keyPatterns) {
			this.jdbc.sql(RECORDS).param(pattern).query((row, n) -> {
				String paymentId = row.getString("payment_id");
				String refundId = row.getString("refund_id");
				boolean inProgress = row.getBoolean("in_progress");
				KeyOutcome outcome = (paymentId == null) ? new KeyOutcome(0, 0, 0, inProgress)
						: outcome(ledger, paymentId, refundId, row.getLong("amount"), inProgress);
				return outcomes.put(row.getString("idempotency_key"), outcome);
			}).list();
		}
		return outcomes;
	}

	private static KeyOutcome outcome(ProviderLedger ledger, String paymentId, @Nullable String refundId, long amount,
			boolean inProgress) {
		long paymentCharges = ledger.charges(paymentId);
		long charges = (refundId != null) ? ledger.refunds(refundId) : paymentCharges;
		return new KeyOutcome(charges, (paymentCharges > 0) ? amount : 0, ledger.refunded(paymentId), inProgress);
	}

}
