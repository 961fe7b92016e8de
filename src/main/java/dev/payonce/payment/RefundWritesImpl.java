package dev.payonce.payment;

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
		return PaymentWritesImpl.write(this.jdbc, UPDATE, refund.getId(), readVersion, refund.status().name(),
				refund.providerReference(), refund.declineCode(), refund.providerKeyGeneration(),
				refund.providerKeyReplayedAt(), refund.updatedAt());
	}

}
