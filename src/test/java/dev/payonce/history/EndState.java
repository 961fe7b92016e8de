package dev.payonce.history;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A soak's end state as rows, with only the JDK: the queries that read it from the
 * database (the idempotency records of the run's keys, the simulated provider's ledger)
 * and the {@link KeyOutcome} each record becomes. {@link KeyRecords} and
 * {@link SimulatorLedger} run these queries through JDBC inside a test;
 * {@link HistoryFiles} has psql run them for a soak outside the JVM (the cluster storm)
 * and reads their rows back from a file, so both kinds of soak are checked on the same
 * rows by the same rules.
 */
public final class EndState {

	/**
	 * Each idempotency record whose key matches the {@code LIKE} pattern given as the one
	 * parameter ({@code ?}): its key, whether it is in progress, the refund it names (if
	 * any), the payment it names or refunds (if any) and that payment's amount in minor
	 * units (0 without one).
	 */
	static final String RECORDS = """
			SELECT r.idempotency_key, r.status = 'IN_PROGRESS' AS in_progress, f.id AS refund_id,
			       paid.id AS payment_id, coalesce(paid.amount, 0) AS amount
			FROM idempotency_records r
			LEFT JOIN payments p ON p.id = r.resource_id
			LEFT JOIN refunds f ON f.id = r.resource_id
			LEFT JOIN payments paid ON paid.id = coalesce(f.payment_id, p.id)
			WHERE r.idempotency_key LIKE ?""";

	/**
	 * The simulated provider's successful charges per payment id, under any of its
	 * provider idempotency keys ({@code payonce-payment-<id>}, then {@code -g<n>} per key
	 * generation, docs/design.md section 5).
	 */
	static final String CHARGES = """
			SELECT substring(provider_idempotency_key FROM 17 FOR 36), count(*) FROM simulated_provider_charges
			WHERE outcome = 'SUCCEEDED' AND provider_idempotency_key LIKE 'payonce-payment-%' GROUP BY 1""";

	/**
	 * The simulated provider's successful refunds per refund id (provider idempotency
	 * keys {@code payonce-refund-<id>...}).
	 */
	static final String REFUNDS = """
			SELECT substring(provider_idempotency_key FROM 16 FOR 36), count(*) FROM simulated_provider_refunds
			WHERE outcome = 'SUCCEEDED' AND provider_idempotency_key LIKE 'payonce-refund-%' GROUP BY 1""";

	/** What the simulated provider refunded per payment id, in minor units. */
	static final String REFUNDED = """
			SELECT substring(c.provider_idempotency_key FROM 17 FOR 36), sum(r.amount)
			FROM simulated_provider_refunds r JOIN simulated_provider_charges c ON c.provider_reference = r.charge_reference
			WHERE r.outcome = 'SUCCEEDED' AND c.provider_idempotency_key LIKE 'payonce-payment-%' GROUP BY 1""";

	private EndState() {
	}

	/**
	 * The outcome of one idempotency record: a refund's key counts the provider's refunds
	 * of that refund as its "charges"; both kinds carry their payment's amount (if it was
	 * charged) and what the provider refunded of it.
	 * @param ledger the provider's side
	 * @param paymentId the payment the record names or refunds, or {@code null} (a record
	 * that names no payment holds nothing but its status)
	 * @param refundId the refund the record names, or {@code null}
	 * @param amount the payment's amount in minor units
	 * @param inProgress whether the record is still {@code IN_PROGRESS}
	 * @return the key's outcome
	 */
	static KeyOutcome outcome(ProviderLedger ledger, @Nullable String paymentId, @Nullable String refundId, long amount,
			boolean inProgress) {
		if (paymentId == null) {
			return new KeyOutcome(0, 0, 0, inProgress);
		}
		long paymentCharges = ledger.charges(paymentId);
		long charges = (refundId != null) ? ledger.refunds(refundId) : paymentCharges;
		return new KeyOutcome(charges, (paymentCharges > 0) ? amount : 0, ledger.refunded(paymentId), inProgress);
	}

	/**
	 * A provider's ledger as the rows of {@link #CHARGES}, {@link #REFUNDS} and
	 * {@link #REFUNDED}, by Payonce's ids; an id with no row has none.
	 *
	 * @param charges successful charges per payment id
	 * @param refunds successful refunds per refund id
	 * @param refunded minor units refunded per payment id
	 */
	record Ledger(Map<String, Long> charges, Map<String, Long> refunds,
			Map<String, Long> refunded) implements ProviderLedger {

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

}
