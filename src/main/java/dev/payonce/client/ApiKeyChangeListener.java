package dev.payonce.client;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps {@link ApiKeyCache} honest (docs/design.md section 12): one platform thread holds
 * one direct connection to PostgreSQL, outside the connection pool, that {@code LISTEN}s
 * on {@value #CHANNEL}, and forgets every cached key on each notification there. The
 * channel is notified by a trigger in the transaction that rotates a key or disables a
 * client (migration {@code V13_2}), so the notification arrives only once that change is
 * committed.
 *
 * <p>
 * Fail closed: the cache is trusted only from the moment the subscription is in place
 * (and everything cached before is forgotten) and its first probe has come back, until
 * the connection fails. At subscription and every heartbeat after it, the application's
 * own connection pool (the {@link DataSource} that every request and every key change
 * uses) notifies a channel of this listener's own with a fresh random nonce, and the
 * listener waits for exactly that notification on its connection. PostgreSQL delivers a
 * notification only to sessions of the database it was sent in
 * (https://www.postgresql.org/docs/current/sql-notify.html), so this proves the listener
 * listens to the database the application writes, not merely to some database, and that
 * its session still listens and delivers, which a silently dead network, a pooler that
 * hands {@code LISTEN} to another session, or a {@code listener-url} naming another
 * database would not. A probe unanswered within two heartbeats counts as a lost
 * connection. On any failure the cache is bypassed at once and the listener reconnects
 * after 100 ms, doubling up to 5 s, with jitter.
 */
final class ApiKeyChangeListener implements SmartLifecycle {

	/** The channel the trigger notifies. */
	static final String CHANNEL = "payonce_api_keys";

	private static final Logger log = LoggerFactory.getLogger(ApiKeyChangeListener.class);

	private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);

	private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

	private final ApiKeyCache cache;

	private final KeyCacheProperties properties;

	private final JdbcConnectionDetails datasource;

	/** The application's pool, which sends the probes. */
	private final DataSource pool;

	/** This listener's own probe channel: an identifier no other instance uses. */
	private final String probeChannel = "payonce_key_cache_probe_"
			+ HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());

	private final long heartbeatNanos;

	private volatile boolean running;

	private volatile @Nullable Thread thread;

	private volatile @Nullable Connection connection;

	/** The listening session's PostgreSQL backend, 0 while there is none. */
	private volatile int backendPid;

	/** Whether the last lost connection was a probe that never came back. */
	private boolean probeUnanswered;

	ApiKeyChangeListener(ApiKeyCache cache, KeyCacheProperties properties, JdbcConnectionDetails datasource,
			DataSource pool) {
		this.cache = cache;
		this.properties = properties;
		this.datasource = datasource;
		this.pool = pool;
		this.heartbeatNanos = properties.heartbeat().toNanos();
	}

	@Override
	public void start() {
		if (!this.properties.enabled() || this.running) {
			return;
		}
		this.running = true;
		Thread listening = Thread.ofPlatform().name("payonce-key-cache-listener").daemon().unstarted(this::run);
		this.thread = listening;
		listening.start();
	}

	@Override
	public void stop() {
		this.running = false;
		Connection open = this.connection;
		if (open != null) {
			try {
				// Closes the socket without waiting for the listening thread's read.
				open.abort(Runnable::run);
			}
			catch (SQLException ex) {
				log.debug("Could not abort the API key cache listener's connection: {}", ex.getClass().getSimpleName());
			}
		}
		Thread listening = this.thread;
		if (listening != null) {
			listening.interrupt();
			try {
				listening.join(Duration.ofSeconds(5));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		this.cache.unsubscribed();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Starts before the web server and stops after it has drained, so that the requests
	 * of a graceful shutdown still use the cache.
	 */
	@Override
	public int getPhase() {
		return 0;
	}

	/** The listening session's PostgreSQL backend pid, 0 while not connected. */
	int backendPid() {
		return this.backendPid;
	}

	private void run() {
		Duration backoff = Duration.ZERO;
		boolean lost = false;
		while (this.running) {
			if (!backoff.isZero() && !pause(backoff)) {
				break;
			}
			try (Connection open = connect()) {
				this.connection = open;
				subscribe(open);
				if (lost) {
					log.info("API key cache listener subscribed again; the cache is in use");
				}
				lost = false;
				backoff = Duration.ZERO;
				listen(open);
			}
			catch (SQLException | RuntimeException ex) {
				this.cache.unsubscribed();
				this.backendPid = 0;
				if (!this.running) {
					break;
				}
				if (ex instanceof ProbeUnanswered && !this.probeUnanswered) {
					// Once per run of unanswered probes: the listener may listen to
					// another
					// database than the application's (listener-url), or its
					// notifications
					// are lost on the way.
					log.warn("API key cache listener did not receive the probe the application's connection pool "
							+ "sent; every request looks its API key up in the database until a probe comes back. "
							+ "Check that payonce.security.key-cache.listener-url names the application's database");
				}
				else if (!lost && !(ex instanceof ProbeUnanswered)) {
					// WARN, not ERROR: a database restart or a network fault, not a bug.
					// The
					// message names a host at most, never a credential.
					log.warn(
							"API key cache listener lost its connection ({}: {}); every request looks its API key "
									+ "up in the database until it has subscribed again",
							ex.getClass().getSimpleName(), ex.getMessage());
				}
				else {
					log.debug("API key cache listener could not subscribe: {}", ex.getClass().getSimpleName());
				}
				lost = true;
				this.probeUnanswered = ex instanceof ProbeUnanswered;
				backoff = backoff.isZero() ? FIRST_BACKOFF : min(backoff.multipliedBy(2), MAX_BACKOFF);
			}
			finally {
				this.connection = null;
			}
		}
		this.cache.unsubscribed();
		this.backendPid = 0;
	}

	private Connection connect() throws SQLException {
		Properties settings = new Properties();
		settings.setProperty("user", Objects.requireNonNullElse(this.properties.listenerUsername(),
				Objects.requireNonNullElse(this.datasource.getUsername(), "")));
		String password = (this.properties.listenerPassword() != null) ? this.properties.listenerPassword()
				: this.datasource.getPassword();
		if (password != null) {
			settings.setProperty("password", password);
		}
		settings.setProperty("ApplicationName", "payonce-key-cache-listener");
		settings.setProperty("tcpKeepAlive", "true");
		settings.setProperty("connectTimeout", Long.toString(Math.max(1, this.properties.heartbeat().toSeconds() * 5)));
		// Bounds a probe's round trip on a network that went silent.
		settings.setProperty("socketTimeout",
				Long.toString(Math.max(2, this.properties.heartbeat().multipliedBy(2).toSeconds() + 1)));
		String url = Objects.requireNonNullElse(this.properties.listenerUrl(), this.datasource.getJdbcUrl());
		Connection open = new org.postgresql.Driver().connect(url, settings);
		if (open == null) {
			throw new SQLException("payonce.security.key-cache.listener-url is not a PostgreSQL JDBC URL");
		}
		open.setAutoCommit(true);
		return open;
	}

	private void subscribe(Connection open) throws SQLException {
		long requested = System.nanoTime();
		try (Statement statement = open.createStatement()) {
			statement.execute("LISTEN " + CHANNEL);
			statement.execute("LISTEN " + this.probeChannel);
			try (ResultSet pid = statement.executeQuery("SELECT pg_backend_pid()")) {
				pid.next();
				this.backendPid = pid.getInt(1);
			}
		}
		// From now on no committed change goes unnoticed, provided the session listens to
		// the application's database: the cache is trusted only once the first probe,
		// sent through the application's pool, has come back.
		probe(open, requested);
	}

	private void listen(Connection open) throws SQLException {
		PGConnection postgres = open.unwrap(PGConnection.class);
		long nextProbe = System.nanoTime() + this.heartbeatNanos;
		while (this.running) {
			long wait = nextProbe - System.nanoTime();
			if (wait <= 0) {
				probe(open, 0);
				nextProbe = System.nanoTime() + this.heartbeatNanos;
				continue;
			}
			handle(postgres.getNotifications((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait))), null);
		}
	}

	/**
	 * Notifies this listener's probe channel with a fresh random nonce through the
	 * application's connection pool, and waits up to two heartbeats for that notification
	 * to come back on the listening connection; then the listener listens to the
	 * application's database, and every notification committed there before the probe was
	 * sent has been handled (PostgreSQL delivers a database's notifications in commit
	 * order).
	 * @param subscribedAt when the subscription was requested ({@link System#nanoTime}),
	 * or 0 for a heartbeat of a listener already subscribed; on a first probe the cache
	 * is marked subscribed only once it has come back
	 * @throws ProbeUnanswered if it did not come back in time
	 */
	private void probe(Connection open, long subscribedAt) throws SQLException {
		PGConnection postgres = open.unwrap(PGConnection.class);
		String nonce = UUID.randomUUID().toString();
		long sentAt = System.nanoTime();
		try (Connection pooled = this.pool.getConnection();
				PreparedStatement notify = pooled.prepareStatement("SELECT pg_notify(?, ?)")) {
			notify.setString(1, this.probeChannel);
			notify.setString(2, nonce);
			notify.executeQuery().close();
			if (!pooled.getAutoCommit()) {
				pooled.commit();
			}
		}
		long deadline = sentAt + 2 * this.heartbeatNanos;
		boolean answered = handle(postgres.getNotifications(), nonce);
		while (!answered) {
			long wait = deadline - System.nanoTime();
			if (wait <= 0 || !this.running) {
				throw new ProbeUnanswered();
			}
			answered = handle(postgres.getNotifications((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait))), nonce);
		}
		if (subscribedAt != 0) {
			this.cache.subscribed(subscribedAt);
		}
		this.cache.confirmed(sentAt);
	}

	/** A probe sent through the application's pool did not come back in time. */
	private static final class ProbeUnanswered extends SQLException {

		ProbeUnanswered() {
			super("The API key cache listener's probe did not come back within two heartbeats");
		}

	}

	/**
	 * Invalidates the cache once if any notification is on {@value #CHANNEL}.
	 * @return whether the probe with {@code nonce} is among them
	 */
	private boolean handle(PGNotification @Nullable [] notifications, @Nullable String nonce) {
		if (notifications == null) {
			return false;
		}
		boolean changed = false;
		boolean answered = false;
		for (PGNotification notification : notifications) {
			if (CHANNEL.equals(notification.getName())) {
				changed = true;
			}
			else if (this.probeChannel.equals(notification.getName()) && notification.getParameter().equals(nonce)) {
				answered = true;
			}
		}
		if (changed) {
			this.cache.invalidateAll();
		}
		return answered;
	}

	private boolean pause(Duration backoff) {
		long jittered = backoff.toNanos() / 2 + ThreadLocalRandom.current().nextLong(backoff.toNanos() / 2 + 1);
		try {
			Thread.sleep(Duration.ofNanos(jittered));
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

}
