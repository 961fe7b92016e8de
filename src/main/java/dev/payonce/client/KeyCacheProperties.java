package dev.payonce.client;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The per-instance cache of API key to client, under {@code payonce.security.key-cache.*}
 * (docs/design.md section 12). Each instance keeps the clients of recently used active
 * keys in memory and forgets all of them when a PostgreSQL notification says a key or
 * client changed; it trusts the cache only while its listening connection is subscribed
 * and answers its probes, and otherwise looks every key up in the database (fail closed).
 *
 * <p>
 * The listener needs a session of its own for as long as it listens: a <em>direct</em>
 * connection to PostgreSQL, never one through PgBouncer in transaction pooling mode,
 * where {@code LISTEN} does not work. Point {@code listener-url} at the server itself
 * when {@code spring.datasource.url} names a pooler.
 *
 * @param enabled whether the cache is used (default true); when false every request looks
 * its key up in the database and no listening connection is opened
 * @param listenerUrl the JDBC URL of the listening connection; default: the application's
 * datasource URL ({@code spring.datasource.url})
 * @param listenerUsername its user; default {@code spring.datasource.username}
 * @param listenerPassword its password; default {@code spring.datasource.password}
 * @param maximumSize the most keys each instance keeps (default 10,000); the least
 * recently used go first
 * @param timeToLive how long a cached key is trusted at most, whatever the notifications
 * say (default 10m); a bound on memory and a second line of defence, not the revocation
 * mechanism
 * @param heartbeat how often the listener proves its subscription by notifying itself
 * (default 1s); a probe not answered within two heartbeats reconnects, and the cache is
 * bypassed whenever no probe sent within the last three heartbeats has come back
 */
@Validated
@ConfigurationProperties("payonce.security.key-cache")
public record KeyCacheProperties(@DefaultValue("true") boolean enabled, @Nullable String listenerUrl,
		@Nullable String listenerUsername, @Nullable String listenerPassword,
		@DefaultValue("10000") @Min(1) long maximumSize,
		@DefaultValue("10m") @DurationMin(millis = 1) Duration timeToLive,
		@DefaultValue("1s") @DurationMin(millis = 10) Duration heartbeat) {

}
