package dev.payonce.event;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The webhook endpoints of every client; each method names the client, so one client
 * never reads or changes another's. A previous secret is read only while its overlap
 * lasts (by the database's clock).
 */
@Repository
class WebhookEndpoints {

	private static final String COLUMNS = """
			id, client_id, url, event_types, secret,
			CASE WHEN previous_secret_expires_at > statement_timestamp() THEN previous_secret END AS previous_secret,
			status, disabled_reason, failing_since, created_at""";

	private final JdbcClient jdbc;

	WebhookEndpoints(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	WebhookEndpoint create(String clientId, String url, List<String> eventTypes, String secret) {
		UUID id = UUID.randomUUID();
		return this.jdbc
			.sql("INSERT INTO webhook_endpoints (id, client_id, url, event_types, secret, status) "
					+ "VALUES (?, ?, ?, ?, ?, 'ENABLED') RETURNING " + COLUMNS)
			.params(id, clientId, url, eventTypes.toArray(String[]::new), secret)
			.query(WebhookEndpoints::read)
			.single();
	}

	List<WebhookEndpoint> of(String clientId) {
		return this.jdbc
			.sql("SELECT " + COLUMNS + " FROM webhook_endpoints WHERE client_id = ? ORDER BY created_at, id")
			.param(clientId)
			.query(WebhookEndpoints::read)
			.list();
	}

	Optional<WebhookEndpoint> find(String clientId, UUID id) {
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM webhook_endpoints WHERE client_id = ? AND id = ?")
			.params(clientId, id)
			.query(WebhookEndpoints::read)
			.optional();
	}

	/** Any client's endpoint, for the dispatcher. */
	Optional<WebhookEndpoint> find(UUID id) {
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM webhook_endpoints WHERE id = ?")
			.param(id)
			.query(WebhookEndpoints::read)
			.optional();
	}

	/** Endpoints disabled because they kept failing, for the admin view. */
	List<WebhookEndpoint> disabledForFailing() {
		return this.jdbc
			.sql("SELECT " + COLUMNS
					+ " FROM webhook_endpoints WHERE disabled_reason = 'failing' ORDER BY updated_at DESC LIMIT 200")
			.query(WebhookEndpoints::read)
			.list();
	}

	/** The new secret signs at once; the old one keeps signing for {@code overlap}. */
	Optional<WebhookEndpoint> rotate(String clientId, UUID id, String secret, Duration overlap) {
		return this.jdbc.sql("""
				UPDATE webhook_endpoints SET previous_secret = secret, secret = ?,
				    previous_secret_expires_at = statement_timestamp() + ? * INTERVAL '1 millisecond',
				    updated_at = statement_timestamp()
				WHERE client_id = ? AND id = ? """ + " RETURNING " + COLUMNS)
			.params(secret, overlap.toMillis(), clientId, id)
			.query(WebhookEndpoints::read)
			.optional();
	}

	/**
	 * Enables or disables an endpoint for its client; enabling forgets a failing streak.
	 */
	Optional<WebhookEndpoint> setEnabled(String clientId, UUID id, boolean enabled) {
		return this.jdbc.sql("""
				UPDATE webhook_endpoints SET status = ?, disabled_reason = ?, failing_since = NULL,
				    updated_at = statement_timestamp()
				WHERE client_id = ? AND id = ? """ + " RETURNING " + COLUMNS)
			.params(enabled ? "ENABLED" : "DISABLED", enabled ? null : "client", clientId, id)
			.query(WebhookEndpoints::read)
			.optional();
	}

	/** Deletes the endpoint with its deliveries and their attempts. */
	boolean delete(String clientId, UUID id) {
		return this.jdbc.sql("DELETE FROM webhook_endpoints WHERE client_id = ? AND id = ?")
			.params(clientId, id)
			.update() == 1;
	}

	long disabledForFailingCount() {
		return this.jdbc.sql("SELECT count(*) FROM webhook_endpoints WHERE disabled_reason = 'failing'")
			.query(Long.class)
			.single();
	}

	private static WebhookEndpoint read(ResultSet rs, int row) throws SQLException {
		Array types = rs.getArray("event_types");
		return new WebhookEndpoint(rs.getObject("id", UUID.class), rs.getString("client_id"), rs.getString("url"),
				Arrays.asList((String[]) types.getArray()), rs.getString("secret"), rs.getString("previous_secret"),
				rs.getString("status"), rs.getString("disabled_reason"),
				Optional.ofNullable(rs.getTimestamp("failing_since")).map(java.sql.Timestamp::toInstant).orElse(null),
				rs.getTimestamp("created_at").toInstant());
	}

}
