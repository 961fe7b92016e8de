package dev.payonce.history;

import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The database's side of a soak's end state: for each idempotency key of the run, its
 * record ({@code idempotency_records}) and the payment, refund, capture or void it names,
 * joined with a {@link ProviderLedger} into the {@link KeyOutcome} that
 * {@link HistoryChecker} takes ({@link EndState} holds the queries and the rules).
 */
public final class KeyRecords {

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
		Map<String, Named> named = new HashMap<>();
		for (String pattern : keyPatterns) {
			this.jdbc.sql(EndState.RECORDS).param(pattern).query((row, n) -> {
				String key = row.getString("idempotency_key");
				named.put(key, new Named(row.getString("payment_id"), row.getString("refund_id")));
				return outcomes.put(key, EndState.outcome(ledger, row.getString("payment_id"),
						row.getString("refund_id"), row.getLong("amount"), row.getBoolean("in_progress")));
			}).list();
			this.jdbc.sql(EndState.HOLDS).param(pattern).query((row, n) -> {
				String key = row.getString("idempotency_key");
				Named names = named.getOrDefault(key, new Named(null, null));
				return outcomes.put(key,
						EndState.withHolds(ledger, outcomes.getOrDefault(key, KeyOutcome.NOTHING), names.paymentId(),
								names.refundId(), row.getString("capture_id"), row.getString("void_id"),
								row.getBoolean("held")));
			}).list();
		}
		return outcomes;
	}

	/** The payment and refund a record names, as {@link EndState#RECORDS} read them. */
	private record Named(@Nullable String paymentId, @Nullable String refundId) {
	}

}
