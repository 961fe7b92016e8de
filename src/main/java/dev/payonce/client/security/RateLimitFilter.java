package dev.payonce.client.security;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.payonce.client.ClientId;
import dev.payonce.client.RateLimitProperties;
import dev.payonce.web.Problems;

/**
 * The per-client request rate limit ({@link RateLimitProperties}): one Bucket4j token
 * bucket per authenticated client, in this instance's memory. Runs right after
 * authentication and before anything reads the body or the database, so a client over its
 * rate costs no more than a map lookup. The administrator and unauthenticated requests
 * are not limited here (the latter are refused by authorisation).
 */
final class RateLimitFilter extends OncePerRequestFilter {

	private final RateLimitProperties properties;

	/**
	 * Buckets of recently active clients; an idle client's bucket is full again anyway,
	 * so dropping it after a minute loses nothing.
	 */
	private final Cache<ClientId, Bucket> buckets = Caffeine.newBuilder()
		.maximumSize(100_000)
		.expireAfterAccess(Duration.ofMinutes(1))
		.build();

	RateLimitFilter(RateLimitProperties properties) {
		this.properties = properties;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		Authentication caller = SecurityContextHolder.getContext().getAuthentication();
		if (!this.properties.enabled() || caller == null || !(caller.getPrincipal() instanceof ClientId clientId)) {
			chain.doFilter(request, response);
			return;
		}
		ConsumptionProbe probe = this.buckets.get(clientId, this::bucket).tryConsumeAndReturnRemaining(1);
		if (probe.isConsumed()) {
			chain.doFilter(request, response);
			return;
		}
		long retryAfterSeconds = Math.max(1, (probe.getNanosToWaitForRefill() + 999_999_999L) / 1_000_000_000L);
		response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
		ProblemDetail problem = Problems.of(HttpStatus.TOO_MANY_REQUESTS, "rate-limit-exceeded", "Too many requests",
				"This client sent more than " + this.properties.requestsPerSecond()
						+ " requests a second. Retry after the time in Retry-After.");
		problem.setInstance(URI.create(request.getRequestURI()));
		Problems.write(request, response, problem);
	}

	private Bucket bucket(ClientId clientId) {
		return Bucket.builder()
			.addLimit(Bandwidth.builder()
				.capacity(this.properties.burst())
				.refillGreedy(this.properties.requestsPerSecond(), Duration.ofSeconds(1))
				.build())
			.build();
	}

}
