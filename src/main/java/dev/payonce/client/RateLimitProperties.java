package dev.payonce.client;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The per-client request rate limit, under {@code payonce.security.rate-limit.*}: a token
 * bucket per client (Bucket4j) that refills {@code requestsPerSecond} tokens a second up
 * to {@code burst}; every request of a client to the payments API takes one, and a
 * request that finds none is answered {@code 429 rate-limit-exceeded} with
 * {@code Retry-After} before anything is read or written.
 *
 * <p>
 * The buckets live in each instance's memory: the limit holds per instance, so behind a
 * load balancer that spreads a client over N instances the client gets up to N times the
 * rate. That is the intended trade: the limit protects each instance's threads and
 * connection pool without a database round trip per request, while the resource that must
 * hold across instances, stored idempotency records, is capped in PostgreSQL
 * ({@code payonce.idempotency.quota.*}).
 *
 * @param enabled whether the limit applies (default true)
 * @param requestsPerSecond sustained requests a second per client (default 100, Stripe's
 * live-mode default)
 * @param burst the most requests a client may send at once after being idle (default 200)
 */
@Validated
@ConfigurationProperties("payonce.security.rate-limit")
public record RateLimitProperties(@DefaultValue("true") boolean enabled,
		@DefaultValue("100") @Min(1) long requestsPerSecond, @DefaultValue("200") @Min(1) long burst) {

}
