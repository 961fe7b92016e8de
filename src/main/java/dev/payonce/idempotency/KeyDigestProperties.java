package dev.payonce.idempotency;

import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The secret of the idempotency-key digests in logs, under
 * {@code payonce.idempotency.key-digest.*}.
 *
 * @param secret the HMAC-SHA256 key, at least 32 characters; the same on every instance
 * so that one key's lines correlate across instances and restarts. Without it each
 * process draws a random one at start-up (and logs a warning): digests then correlate
 * only within one process's lifetime.
 */
@Validated
@ConfigurationProperties("payonce.idempotency.key-digest")
record KeyDigestProperties(@Nullable @Size(min = 32) String secret) {

}
