package dev.payonce.provider;

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
 * {@code refunds_in_flight} are never written here (the refund module's reservation
 * statements own them).
 */
public final class VersionedWrites {

	private static final String SET = """
			status = ?, provider_reference = ?, decline_code = ?, provider_key_generation = ?,
			    provider_key_replayed_at = ?, updated_at = ?, version = version + 1""";

	private static final String WHERE = "id = ? AND version = ?";

	private VersionedWrites() {
	}

	/**
	 * The conditional {@code UPDATE} of one resource moved in memory since it was read.
	 * Payments and refunds share these columns' names. A {@code null} is bound with its
	 * SQL type, so that it needs no round trip to ask the driver for it.
	 * @param table the resource's table ({@code payments} or {@code refunds})
	 * @param id the resource's id
	 * @param readVersion the version it was read with
	 * @return the write, for {@link FinishOverRead}
	 */
	public static ResourceWrite write(String table, UUID id, long readVersion, String status,
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

	/**
	 * @param instant an instant, or {@code null}
	 * @return it at UTC, as a {@code timestamptz} is bound, or {@code null}
	 */
	public static @Nullable OffsetDateTime utc(@Nullable Instant instant) {
		return (instant != null) ? instant.atOffset(ZoneOffset.UTC) : null;
	}

}
