package dev.payonce.history;

import java.util.HashMap;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The simulated provider's ledger ({@code simulated_provider_charges},
 * {@code simulated_provider_refunds}, {@code simulated_provider_captures},
 * {@code simulated_provider_voids}) as read once at the end of a soak, by the queries of
 * {@link EndState}: a payment's charges are those under any of its provider idempotency
 * keys, a refund's, a capture's or a void's those under its own; only {@code SUCCEEDED}
 * entries count. Each query runs once, whatever the number of keys.
 */
public final class SimulatorLedger implements ProviderLedger {

	private final ProviderLedger rows;

	private final Map<String, Long> captures;

	private final Map<String, Long> voids;

	private final Map<String, Long> captured;

	private final Map<String, Long> capturesAfterVoid;

	/**
	 * Reads the ledger.
	 * @param jdbc the application's database, which holds the simulator's ledger
	 */
	public SimulatorLedger(JdbcClient jdbc) {
		this.rows = new EndState.Ledger(read(jdbc, EndState.CHARGES), read(jdbc, EndState.REFUNDS),
				read(jdbc, EndState.REFUNDED));
		this.captures = read(jdbc, EndState.CAPTURES);
		this.voids = read(jdbc, EndState.VOIDS);
		this.captured = read(jdbc, EndState.CAPTURED);
		this.capturesAfterVoid = read(jdbc, EndState.CAPTURES_AFTER_VOID);
	}

	private static Map<String, Long> read(JdbcClient jdbc, String sql) {
		Map<String, Long> into = new HashMap<>();
		jdbc.sql(sql).query((row, n) -> into.put(row.getString(1), row.getLong(2))).list();
		return into;
	}

	@Override
	public long charges(String paymentId) {
		return this.rows.charges(paymentId);
	}

	@Override
	public long refunds(String refundId) {
		return this.rows.refunds(refundId);
	}

	@Override
	public long refunded(String paymentId) {
		return this.rows.refunded(paymentId);
	}

	@Override
	public long captures(String captureId) {
		return this.captures.getOrDefault(captureId, 0L);
	}

	@Override
	public long voids(String voidId) {
		return this.voids.getOrDefault(voidId, 0L);
	}

	@Override
	public long captured(String paymentId) {
		return this.captured.getOrDefault(paymentId, 0L);
	}

	@Override
	public long capturesAfterVoid(String paymentId) {
		return this.capturesAfterVoid.getOrDefault(paymentId, 0L);
	}

}
