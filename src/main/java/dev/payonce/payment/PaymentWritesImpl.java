package dev.payonce.payment;

import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * {@link PaymentWrites} with one SQL statement; Spring Data finds it by its name.
 * Thread-safe.
 */
class PaymentWritesImpl implements PaymentWrites {

	private static final String UPDATE = versionedUpdate("payments");

	private final JdbcClient jdbc;

	PaymentWritesImpl(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public boolean writeIfUnchanged(Payment payment, long readVersion) {
		return write(this.jdbc, UPDATE, payment.getId(), readVersion, payment.status().name(),
				payment.providerReference(), payment.declineCode(), payment.providerKeyGeneration(),
				payment.providerKeyReplayedAt(), payment.updatedAt());
	}

	/**
	 * Runs {@link #versionedUpdate}'s statement. Nullable values are bound with their SQL
	 * type, so that a null needs no round trip to ask the driver for it.
	 * @return whether the row was written
	 */
	static boolean write(JdbcClient jdbc, String update, UUID id, long readVersion, String status,
			@Nullable String providerReference, @Nullable String declineCode, int providerKeyGeneration,
			@Nullable Instant providerKeyReplayedAt, Instant updatedAt) {
		return jdbc.sql(update)
			.param("status", status)
			.param("providerReference", providerReference, Types.VARCHAR)
			.param("declineCode", declineCode, Types.VARCHAR)
			.param("providerKeyGeneration", providerKeyGeneration)
			.param("providerKeyReplayedAt", utc(providerKeyReplayedAt), Types.TIMESTAMP_WITH_TIMEZONE)
			.param("updatedAt", utc(updatedAt))
			.param("id", id)
			.param("readVersion", readVersion)
			.update() == 1;
	}

	/**
	 * The conditional {@code UPDATE} of a payment's or refund's mutable columns (the two
	 * tables share their names).
	 */
	static String versionedUpdate(String table) {
		return """
				UPDATE %s SET status = :status, provider_reference = :providerReference,
				    decline_code = :declineCode, provider_key_generation = :providerKeyGeneration,
				    provider_key_replayed_at = :providerKeyReplayedAt, updated_at = :updatedAt, version = version + 1
				WHERE id = :id AND version = :readVersion""".formatted(table);
	}

	static @Nullable OffsetDateTime utc(@Nullable Instant instant) {
		return (instant != null) ? instant.atOffset(ZoneOffset.UTC) : null;
	}

}
