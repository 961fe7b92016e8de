package dev.payonce.client.security;

import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.payonce.client.ClientId;
import dev.payonce.client.ReadLimitProperties;
import dev.payonce.web.Problems;

/**
 * The read bulkhead ({@link ReadLimitProperties}, docs/design.md section 13): a client's
 * {@code GET} or {@code HEAD} runs only while it holds one of the client's
 * {@code perClient} permits and one of the instance's {@code total} permits; otherwise it
 * is answered at once, before anything reads the database, {@code 429} (the client's own
 * reads fill its share) or {@code 503} (all reads together fill theirs), each with
 * {@code Retry-After: 1}. Writes are never limited here: the permits bound only the
 * connections that reads can hold, so one client's reads cannot starve another client's
 * payments and refunds. No request waits for a permit, so a burst holds no threads. Runs
 * after authentication and the rate limit; the administrator is not limited.
 */
final class ReadLimitFilter extends OncePerRequestFilter {

	private static final String RETRY_AFTER_SECONDS = "1";

	private final int perClient;

	private final Semaphore total;

	/**
	 * Reads running per client; a client is in the map only while it has one, so the map
	 * holds at most {@code total} entries.
	 */
	private final ConcurrentHashMap<ClientId, Integer> running = new ConcurrentHashMap<>();

	ReadLimitFilter(int perClient, int total) {
		if (perClient < 1 || total < 1) {
			throw new IllegalArgumentException(
					"Read limits must be 1 or more, got per client " + perClient + " and total " + total);
		}
		this.perClient = perClient;
		this.total = new Semaphore(total);
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		Authentication caller = SecurityContextHolder.getContext().getAuthentication();
		if (!isRead(request) || caller == null || !(caller.getPrincipal() instanceof ClientId clientId)) {
			chain.doFilter(request, response);
			return;
		}
		// The client's own share first: a client over it is told 429 (its own doing)
		// even when all reads together are at the total too.
		if (!acquire(clientId)) {
			refuse(request, response, HttpStatus.TOO_MANY_REQUESTS, "rate-limit-exceeded", "Too many requests",
					"This client has " + this.perClient
							+ " reads in progress, the most it may run at once. Retry after the time in Retry-After.");
			return;
		}
		try {
			if (!this.total.tryAcquire()) {
				refuse(request, response, HttpStatus.SERVICE_UNAVAILABLE, "service-unavailable", "Service unavailable",
						"This instance is running as many reads as it allows at once. Retry after the time in "
								+ "Retry-After.");
				return;
			}
			try {
				chain.doFilter(request, response);
			}
			finally {
				this.total.release();
			}
		}
		finally {
			release(clientId);
		}
	}

	/** Reads running for a client now; for tests. */
	int running(ClientId clientId) {
		return this.running.getOrDefault(clientId, 0);
	}

	private static boolean isRead(HttpServletRequest request) {
		return HttpMethod.GET.matches(request.getMethod()) || HttpMethod.HEAD.matches(request.getMethod());
	}

	private boolean acquire(ClientId clientId) {
		boolean[] acquired = new boolean[1];
		this.running.compute(clientId, (id, count) -> {
			int now = (count != null) ? count : 0;
			acquired[0] = now < this.perClient;
			return acquired[0] ? now + 1 : now;
		});
		return acquired[0];
	}

	private void release(ClientId clientId) {
		this.running.computeIfPresent(clientId, (id, count) -> (count <= 1) ? null : count - 1);
	}

	private static void refuse(HttpServletRequest request, HttpServletResponse response, HttpStatus status, String slug,
			String title, String detail) throws IOException {
		response.setHeader(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
		Problems.write(request, response, Problems.of(status, slug, title, detail));
	}

}
