package dev.payonce.client;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A client as the admin API shows it: never with a secret.
 *
 * @param id the client id
 * @param name a human name
 * @param createdAt when it was created (UTC)
 * @param disabledAt when it was disabled (UTC), {@code null} while active
 */
public record Client(ClientId id, String name, Instant createdAt, @Nullable Instant disabledAt) {

}
