package dev.payonce.payment;

import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.SqlParameterValue;

import dev.payonce.idempotency.ResourceWrite;

/**
 * The writes that let a payment's or refund's completion skip reading it again
 * ({@link FinishOverRead}): one {@code UPDATE} of the resource's mutable columns, made
 * only if the row's {@code @Version} is still the one it was read with, which it moves on
 * by one as a JPA write would. So a resource changed by anyone since it was read is never
 * overwritten. Plain SQL run by the engine's completion statement, because Hibernate
 * translates a JPQL {@code UPDATE} again on every execution (issue 13's profile: about 40
 * % of that statement's cost in the JVM). {@code refunded_amount} and
 * {@code refunds_in_flight} are never written here ({@link RefundReservations} owns
 * them).
 */
final class VersionedWrites {

	private static final String SET = """
			status = ?, provider_reference = ?, decline_code = ?, provider_key_generation = ?,
			    provider_key_replayed_at = ?, updated_at = ?, version = version + 1""";

	private static final String WHERE = "id = ? AND version = ?";

	private VersionedWrites() {
	}

	/**
	 * @param payment the payment, moved in memory since it was read
	 * @param readVersion the version it was read with
	 * @return the conditional {@code UPDATE} of {@code payments}
	 */
	static ResourceWrite of(Payment payment, long readVersion) {
		return write("payments", payment.getId(), readVersion, payment.status().name(), payment.providerReference(),
				payment.declineCode(), payment.providerKeyGeneration(), payment.providerKeyReplayedAt(),
				payment.updatedAt());
	}

	/**
	 * @param refund the refund, moved in memory since it was read
	 * @param readVersion the version it was read with
	 * @return the conditional {@code UPDATE} of {@code refunds}
	 */
	static ResourceWrite of(Refund refund, long readVersion) {
		return write("refunds", refund.getId(), readVersion, refund.status().name(), refund.providerReference(),
				refund.declineCode(), refund.providerKeyGeneration(), refund.providerKeyReplayedAt(),
				refund.updatedAt());
	}

	/**
	 * The two tables share the columns' names. A {@code null} is bound with its SQL type,
	 * so that it needs no round trip to ask the driver for it.
	 */
	private static ResourceWrite write(String table, UUID id, long readVersion, String status,
			@Nullable String providerReference, @Nullable String declineCode, int providerKeyGeneration,
			@Nullable Instant providerKeyReplayedAt, Instant updatedAt) {
		List<Object> args = new ArrayList<>();
		args.add(status);
		args.add(new SqlParameterValue(Types.VARCHAR, providerReference));
		args.add(new SqlParameterValue(Types.VARCHAR, declineCode));
		args.add(providerKeyGeneration);
		args.add(new SqlParameterValue(Types.TIMESTAMP_WITH_TIMEZONE, utc(providerKeyReplayedAt)));
		args.add(utc(updatedAt));
		args.add(id);
		args.add(readVersion);
		return new ResourceWrite(table, SET, WHERE, args);
	}

	static @Nullable OffsetDateTime utc(@Nullable Instant instant) {
		return (instant != null) ? instant.atOffset(ZoneOffset.UTC) : null;
	}

}
