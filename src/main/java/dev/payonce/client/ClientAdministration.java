package dev.payonce.client;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Creates clients, issues and rotates their API keys, disables them, and authenticates
 * API keys. Keys are stored only as SHA-256 digests; a key is shown once, in the
 * {@link IssuedKey} that creates or rotates it. Log lines name client ids, never keys.
 */
@Service
public class ClientAdministration {

	private static final Logger log = LoggerFactory.getLogger(ClientAdministration.class);

	private final Clients clients;

	private final Clock clock;

	private final boolean devClientEnabled;

	private final ApiKeyCache cache;

	ClientAdministration(Clients clients, Clock clock, SecurityProperties security, ApiKeyCache cache) {
		this.clients = clients;
		this.clock = clock;
		this.devClientEnabled = security.devClient().enabled();
		this.cache = cache;
	}

	/**
	 * Creates a client with a first API key, in one transaction.
	 * @param name a human name, 1-100 characters
	 * @param live {@code true} for an {@code sk_live_} key, {@code false} for
	 * {@code sk_test_}
	 * @return the client and its key
	 */
	@Transactional
	public IssuedKey create(String name, boolean live) {
		Client client = new Client(ClientId.random(), name, now(), null);
		this.clients.insert(client);
		ApiKey key = ApiKey.generate(live);
		this.clients.insertKey(client.id(), key, client.createdAt());
		log.info("Created client {}", client.id());
		return new IssuedKey(client, key);
	}

	/**
	 * Every client, oldest first, without secrets.
	 * @return the clients
	 */
	@Transactional(readOnly = true)
	public List<Client> list() {
		return this.clients.findAll();
	}

	/**
	 * One client, without secrets.
	 * @param clientId the client
	 * @return the client, or empty if there is none with this id
	 */
	@Transactional(readOnly = true)
	public Optional<Client> find(ClientId clientId) {
		return this.clients.find(clientId);
	}

	/**
	 * Replaces every active key of an active client with one new key, in one transaction:
	 * the old keys stop working at once. The client's row is locked first
	 * ({@code SELECT ... FOR UPDATE}), so of any number of concurrent rotations each runs
	 * after the previous one committed and revokes the key it issued: afterwards exactly
	 * one key works, the last one issued. A rotation racing a disable either sees the
	 * client disabled (empty) or is revoked by it. Every instance forgets its cached keys
	 * once this commits: this one before the method returns, the others when the
	 * notification arrives (docs/design.md section 12).
	 * @param clientId the client
	 * @param live the new key's kind
	 * @return the client and its new key, or empty if there is no such active client
	 */
	@Transactional
	public Optional<IssuedKey> rotate(ClientId clientId, boolean live) {
		Optional<Client> client = this.clients.lock(clientId).filter((found) -> found.disabledAt() == null);
		return client.map((found) -> {
			Instant now = now();
			forgetCachedKeysAfterCommit();
			this.clients.revokeKeys(clientId, now);
			ApiKey key = ApiKey.generate(live);
			this.clients.insertKey(clientId, key, now);
			log.info("Rotated the API keys of client {}", clientId);
			return new IssuedKey(found, key);
		});
	}

	/**
	 * Disables a client: its keys stop working at once (on other instances, once the
	 * notification arrives: docs/design.md section 12). Its payments stay.
	 * @param clientId the client
	 * @return the client as it is now, or empty if there is no such client
	 */
	@Transactional
	public Optional<Client> disable(ClientId clientId) {
		// The same lock as a rotation: a disable never interleaves with one.
		forgetCachedKeysAfterCommit();
		if (this.clients.lock(clientId).isPresent() && this.clients.disable(clientId, now())) {
			log.info("Disabled client {}", clientId);
		}
		return this.clients.find(clientId);
	}

	/**
	 * The active client an API key belongs to, looked up by the key's digest in this
	 * instance's cache when it is trusted, otherwise in the database (docs/design.md
	 * section 12). A key revoked or a client disabled is refused by this instance as soon
	 * as the change committed here, and by the others as soon as its notification
	 * arrived; an instance whose listener is not subscribed asks the database.
	 * @param key the presented key
	 * @return the client, or empty if the key is unknown or revoked or its client
	 * disabled, and always empty for the development client's published key unless this
	 * process runs with {@code payonce.security.dev-client.enabled=true}, whatever the
	 * database holds
	 */
	// A cache hit touches no database; a miss is one statement in autocommit (no
	// BEGIN/COMMIT around it).
	public Optional<ClientId> authenticate(ApiKey key) {
		if (!this.devClientEnabled && key.equals(SecurityProperties.DevClient.KEY)) {
			return Optional.empty();
		}
		return this.cache.find(key.digest(), this.clients::findActiveByKeyDigest);
	}

	/**
	 * {@link #holdAuthorization}'s check as an SQL boolean expression, for a statement
	 * that must hold the client's row until it commits (the claim in one statement,
	 * docs/design.md section 4): the same function, taking the client id and the key
	 * digest as its two positional parameters. Its session must run at READ COMMITTED, or
	 * the function raises SQLSTATE 55000.
	 */
	public static final String AUTHORIZATION_CHECK = "client_still_authorized(?, ?)";

	/**
	 * Authorisation at the point of effect: whether the client is still active and the
	 * key with this digest still its active key, holding the client's row until the
	 * caller's transaction ends (see {@link CurrentClient#confirmAuthorized()}).
	 * @param clientId the authenticated client
	 * @param keyDigest the digest of the key it authenticated with
	 * @return {@code true} if both are still active
	 * @throws org.springframework.transaction.IllegalTransactionStateException outside a
	 * transaction
	 */
	@Transactional(propagation = Propagation.MANDATORY)
	public boolean holdAuthorization(ClientId clientId, String keyDigest) {
		return this.clients.holdActive(clientId, keyDigest);
	}

	/**
	 * Makes sure a client with a fixed, active key exists; for the development client. A
	 * fixed key revoked by an earlier process is reinstated. Safe on several instances at
	 * once.
	 * @param clientId the client id
	 * @param name its name
	 * @param key its fixed key
	 */
	@Transactional
	public void ensure(ClientId clientId, String name, ApiKey key) {
		Instant now = now();
		this.clients.insert(new Client(clientId, name, now, null));
		if (!this.clients.insertKey(clientId, key, now)) {
			this.clients.reinstateKey(clientId, key);
		}
	}

	/**
	 * Revokes every active key of a client without disabling it; for the development
	 * client when this process runs without it.
	 * @param clientId the client
	 * @return how many keys were active and are now revoked
	 */
	@Transactional
	public int revokeKeys(ClientId clientId) {
		forgetCachedKeysAfterCommit();
		return this.clients.revokeKeys(clientId, now());
	}

	/**
	 * This instance forgets its cached keys once the current transaction commits, before
	 * the caller sees the result: a request sent after the answer cannot meet a key this
	 * change revoked. (The trigger's notification does the same a moment later, here and
	 * on every other instance.) Not before the commit: a lookup between the invalidation
	 * and the commit would read and cache the old state.
	 */
	private void forgetCachedKeysAfterCommit() {
		if (!TransactionSynchronizationManager.isSynchronizationActive()) {
			throw new IllegalStateException("A change of keys or clients must run in a transaction");
		}
		TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

			@Override
			public void afterCommit() {
				ClientAdministration.this.cache.invalidateAll();
			}

		});
	}

	private Instant now() {
		return this.clock.instant().truncatedTo(ChronoUnit.MICROS);
	}

}
