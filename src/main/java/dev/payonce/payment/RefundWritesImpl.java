package dev.payonce.payment;

import java.sql.Types;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * {@link RefundWrites} with one SQL statement; Spring Data finds it by its name.
 * Thread-safe.
 */
class RefundWritesImpl implements RefundWrites {

	private static final String UPDATE = PaymentWritesImpl.versionedUpdate("refunds");

	private final JdbcClient jdbc;

	RefundWritesImpl(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public boolean writeIfUnchanged(Refund refund, long readVersion) {
		return this.jdbc.sql(UPDATE)
			.param("status", refund.status().name())
			.param("providerReference", refund.providerReference(), Types.VARCHAR)
			.param("declineCode", refund.declineCode(), Types.VARCHAR)
			.param("providerKeyGeneration", refund.providerKeyGeneration())
			.param("providerKeyReplayedAt", PaymentWritesImpl.utc(refund.providerKeyReplayedAt()),
					Types.TIMESTAMP_WITH_TIMEZONE)
			.param("updatedAt", PaymentWritesImpl.utc(refund.updatedAt()))
			.param("id", refund.getId())
			.param("readVersion", readVersion)
			.update() == 1;
	}

}
