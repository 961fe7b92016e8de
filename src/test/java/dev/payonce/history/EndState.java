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

	/**
	 * The capture side of each idempotency record whose key matches the {@code LIKE}
	 * pattern given as the one parameter: its key, the capture or void it names (if any),
	 * and whether the payment it names still holds a capture reservation or a void (false
	 * for a record that names no payment). Read in the JVM soaks only
	 * ({@link KeyRecords}): the cluster storm sends no captures.
	 */
	static final String HOLDS = """
			SELECT r.idempotency_key, k.id AS capture_id, v.id AS void_id,
			       coalesce(p.captures_in_flight > 0 OR p.void_in_flight, false) AS held
			FROM idempotency_records r
			LEFT JOIN captures k ON k.id = r.resource_id
			LEFT JOIN voids v ON v.id = r.resource_id
			LEFT JOIN payments p ON p.id = r.resource_id
			WHERE r.idempotency_key LIKE ?""";

	/**
	 * The simulated provider's successful captures per capture id (provider idempotency
	 * keys {@code payonce-capture-<id>...}).
	 */
	static final String CAPTURES = """
			SELECT substring(provider_idempotency_key FROM 17 FOR 36), count(*) FROM simulated_provider_captures
			WHERE outcome = 'SUCCEEDED' AND provider_idempotency_key LIKE 'payonce-capture-%' GROUP BY 1""";

	/**
	 * The simulated provider's successful voids per void id (provider idempotency keys
	 * {@code payonce-void-<id>...}).
	 */
	static final String VOIDS = """
			SELECT substring(provider_idempotency_key FROM 14 FOR 36), count(*) FROM simulated_provider_voids
			WHERE outcome = 'SUCCEEDED' AND provider_idempotency_key LIKE 'payonce-void-%' GROUP BY 1""";

	/** What the simulated provider captured per payment id, in minor units. */
	static final String CAPTURED = """
			SELECT substring(c.provider_idempotency_key FROM 17 FOR 36), sum(k.amount)
			FROM simulated_provider_captures k JOIN simulated_provider_charges c ON c.provider_reference = k.charge_reference
			WHERE k.outcome = 'SUCCEEDED' AND c.provider_idempotency_key LIKE 'payonce-payment-%' GROUP BY 1""";

	/**
	 * The simulated provider's successful captures per payment id made after the charge's
	 * successful void, ordered by the times the ledger wrote. Payonce never has a capture
	 * and a void of one payment at the provider at once (each claim holds the payment
	 * against the other until it is settled, docs/design.md section 15), so those times
	 * order them.
	 */
	static final String CAPTURES_AFTER_VOID = """
			SELECT substring(c.provider_idempotency_key FROM 17 FOR 36), count(*)
			FROM simulated_provider_captures k
			JOIN simulated_provider_charges c ON c.provider_reference = k.charge_reference
			JOIN simulated_provider_voids v ON v.charge_reference = k.charge_reference AND v.outcome = 'SUCCEEDED'
			WHERE k.outcome = 'SUCCEEDED' AND k.created_at > v.created_at
			  AND c.provider_idempotency_key LIKE 'payonce-payment-%' GROUP BY 1""";

	private EndState() {
	}

	/**
	 * The outcome of one idempotency record with its capture side: a capture's key counts
	 * the provider's captures of that capture as its "charges", a void's key the
	 * provider's voids of it; the key that created a payment carries what the provider
	 * captured of it, its captures after a void and whether it is still held.
	 * @param ledger the provider's side
	 * @param base the record's outcome by {@link #outcome}
	 * @param paymentId the payment the record names or refunds, or {@code null}
	 * @param refundId the refund the record names, or {@code null}
	 * @param captureId the capture the record names, or {@code null}
	 * @param voidId the void the record names, or {@code null}
	 * @param held whether the payment the record names still holds a capture or a void
	 * @return the key's outcome
	 */
	static KeyOutcome withHolds(ProviderLedger ledger, KeyOutcome base, @Nullable String paymentId,
			@Nullable String refundId, @Nullable String captureId, @Nullable String voidId, boolean held) {
		if (captureId != null) {
			return new KeyOutcome(ledger.captures(captureId), 0, 0, base.inProgress(), KeyOutcome.Holds.CAPTURE);
		}
		if (voidId != null) {
			return new KeyOutcome(ledger.voids(voidId), 0, 0, base.inProgress());
		}
		if (paymentId == null || refundId != null) {
			return base;
		}
		return new KeyOutcome(base.charges(), base.paid(), base.refunded(), base.inProgress(),
				new KeyOutcome.Holds(false, ledger.captured(paymentId), ledger.capturesAfterVoid(paymentId), held));
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
