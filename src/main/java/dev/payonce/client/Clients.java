package dev.payonce.client;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code clients} and {@code api_keys} tables. Every method runs in the caller's
 * transaction.
 */
@Repository
class Clients {

	private final JdbcClient jdbc;

	Clients(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/** Inserts the client unless its id exists; true if inserted. */
	boolean insert(Client client) {
		return this.jdbc.sql("""
				INSERT INTO clients (id, name, created_at) VALUES (:id, :name, :createdAt)
				ON CONFLICT (id) DO NOTHING""")
			.param("id", client.id().value())
			.param("name", client.name())
			.param("createdAt", utc(client.createdAt()))
			.update() == 1;
	}

	/** Inserts the key unless its digest exists; true if inserted. */
	boolean insertKey(ClientId clientId, ApiKey key, Instant now) {
		return this.jdbc
			.sql("""
					INSERT INTO api_keys (key_digest, client_id, key_hint, created_at) VALUES (:digest, :clientId, :hint, :now)
					ON CONFLICT (key_digest) DO NOTHING""")
			.param("digest", key.digest())
			.param("clientId", clientId.value())
			.param("hint", key.hint())
			.param("now", utc(now))
			.update() == 1;
	}

	/**
	 * Locks the client's row until the caller's transaction ends and reads it. Every
	 * change to a client's keys or state takes this lock first, so concurrent rotations
	 * and a rotation racing a disable run one after another, each seeing the last one's
	 * committed keys.
	 */
	Optional<Client> lock(ClientId clientId) {
		return this.jdbc.sql("SELECT id, name, created_at, disabled_at FROM clients WHERE id = :id FOR UPDATE")
			.param("id", clientId.value())
			.query((rs, row) -> client(rs.getString("id"), rs.getString("name"),
					rs.getObject("created_at", OffsetDateTime.class),
					rs.getObject("disabled_at", OffsetDateTime.class)))
			.optional();
	}

	/** Makes a revoked key of the client active again; true if it was revoked. */
	boolean reinstateKey(ClientId clientId, ApiKey key) {
		return this.jdbc
			.sql("UPDATE api_keys SET revoked_at = NULL WHERE key_digest = :digest AND client_id = :clientId "
					+ "AND revoked_at IS NOT NULL")
			.param("digest", key.digest())
			.param("clientId", clientId.value())
			.update() == 1;
	}

	/** Revokes every active key of the client; the count revoked. */
	int revokeKeys(ClientId clientId, Instant now) {
		return this.jdbc.sql("UPDATE api_keys SET revoked_at = :now WHERE client_id = :clientId AND revoked_at IS NULL")
			.param("now", utc(now))
			.param("clientId", clientId.value())
			.update();
	}

	/** Disables the client if it is active; true if it was. */
	boolean disable(ClientId clientId, Instant now) {
		return this.jdbc.sql("UPDATE clients SET disabled_at = :now WHERE id = :id AND disabled_at IS NULL")
			.param("now", utc(now))
			.param("id", clientId.value())
			.update() == 1;
	}

	/**
	 * Whether the client is active and the key with this digest is its active key, with
	 * the client's row held {@code FOR KEY SHARE} until the caller's transaction ends.
	 * One round trip to the function {@code client_still_authorized} (migration V13_3),
	 * which runs two statements on purpose: the first waits for a rotation or disable
	 * holding the row and then reads its committed state; the second, a new statement
	 * with a fresh snapshot, therefore sees the keys that rotation committed. (In one
	 * joined statement PostgreSQL would recheck only the locked row and read the key row
	 * as of the statement's start.) Locks in the same order as {@link #lock}: client
	 * first. Correct only at READ COMMITTED; at any other level the function raises
	 * SQLSTATE 55000 (V13_3), so the claim fails closed.
	 * @throws org.springframework.dao.DataAccessException if the transaction does not run
	 * at READ COMMITTED, or the database fails
	 */
	boolean holdActive(ClientId clientId, String keyDigest) {
		return this.jdbc.sql("SELECT client_still_authorized(:id, :digest)")
			.param("id", clientId.value())
			.param("digest", keyDigest)
			.query(Boolean.class)
			.single();
	}

	/** The active client owning an active key with this digest. */
	Optional<ClientId> findActiveByKeyDigest(String digest) {
		return this.jdbc.sql("""
				SELECT c.id FROM api_keys k JOIN clients c ON c.id = k.client_id
				WHERE k.key_digest = :digest AND k.revoked_at IS NULL AND c.disabled_at IS NULL""")
			.param("digest", digest)
			.query((rs, row) -> new ClientId(rs.getString("id")))
			.optional();
	}

	Optional<Client> find(ClientId clientId) {
		return this.jdbc.sql("SELECT id, name, created_at, disabled_at FROM clients WHERE id = :id")
			.param("id", clientId.value())
			.query((rs, row) -> client(rs.getString("id"), rs.getString("name"),
					rs.getObject("created_at", OffsetDateTime.class),
					rs.getObject("disabled_at", OffsetDateTime.class)))
			.optional();
	}

	List<Client> findAll() {
		return this.jdbc.sql("SELECT id, name, created_at, disabled_at FROM clients ORDER BY created_at, id")
			.query((rs, row) -> client(rs.getString("id"), rs.getString("name"),
					rs.getObject("created_at", OffsetDateTime.class),
					rs.getObject("disabled_at", OffsetDateTime.class)))
			.list();
	}

	private static Client client(String id, String name, OffsetDateTime createdAt,
			@Nullable OffsetDateTime disabledAt) {
		return new Client(new ClientId(id), name, createdAt.toInstant(),
				(disabledAt != null) ? disabledAt.toInstant() : null);
	}

	private static OffsetDateTime utc(Instant instant) {
		return instant.atOffset(ZoneOffset.UTC);
	}

}
