package dev.payonce.client;

import jakarta.validation.constraints.Min;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The read bulkhead, under {@code payonce.security.read-limit.*} (docs/design.md section
 * 13): how many reads ({@code GET} and {@code HEAD} of the payments API) may run at once
 * on this instance, per client and in all. A read holds at most one pooled connection at
 * a time, so {@code total} bounds the connections reads can hold, and the rest of the
 * pool stays for payments and refunds whatever any client reads. A read over a limit is
 * refused before it touches the database: over {@code perClient},
 * {@code 429 rate-limit-exceeded}; over {@code total}, {@code 503 service-unavailable};
 * both with {@code Retry-After}.
 *
 * @param enabled whether the limits apply (default true)
 * @param perClient the most reads one client may have running at once (default 4)
 * @param total the most reads of all clients at once; unset: half the connection pool
 * ({@code spring.datasource.hikari.maximum-pool-size}), at least 1
 */
@Validated
@ConfigurationProperties("payonce.security.read-limit")
public record ReadLimitProperties(@DefaultValue("true") boolean enabled, @DefaultValue("4") @Min(1) int perClient,
		@Nullable @Min(1) Integer total) {

	/**
	 * The total limit in force.
	 * @param poolSize the connection pool's maximum size
	 * @return {@code total} if set, otherwise half of {@code poolSize}, at least 1
	 */
	public int totalFor(int poolSize) {
		return (this.total != null) ? this.total : Math.max(1, poolSize / 2);
	}

}
