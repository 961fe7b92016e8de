package dev.payonce.client.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.payonce.client.ApiKey;
import dev.payonce.client.ClientAdministration;
import dev.payonce.client.ClientId;

/**
 * Authenticates {@code Authorization: Bearer <token>}. An API key ({@code sk_live_} /
 * {@code sk_test_}) is looked up by its SHA-256 digest, so no secret is compared
 * character by character; the admin token is compared digest to digest in constant time.
 * A request without the header continues anonymous (and is refused by authorisation where
 * that matters); a malformed header, an unknown or revoked key, or a disabled client is
 * answered 401 at once.
 */
final class BearerTokenFilter extends OncePerRequestFilter {

	private static final String BEARER = "Bearer ";

	private final ClientAdministration clients;

	private final byte @Nullable [] adminTokenDigest;

	private final ProblemWriter problems;

	BearerTokenFilter(ClientAdministration clients, @Nullable String adminToken, ProblemWriter problems) {
		this.clients = clients;
		this.adminTokenDigest = (adminToken != null) ? sha256(adminToken) : null;
		this.problems = problems;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		List<String> headers = Collections.list(request.getHeaders(HttpHeaders.AUTHORIZATION));
		if (headers.isEmpty()) {
			chain.doFilter(request, response);
			return;
		}
		Optional<CallerAuthentication> caller = (headers.size() == 1) ? authenticate(headers.get(0)) : Optional.empty();
		if (caller.isEmpty()) {
			SecurityContextHolder.clearContext();
			this.problems.commence(request, response, new BadCredentialsException("Invalid bearer credentials"));
			return;
		}
		SecurityContext context = SecurityContextHolder.createEmptyContext();
		context.setAuthentication(caller.get());
		SecurityContextHolder.setContext(context);
		if (caller.get().getPrincipal() instanceof ClientId clientId) {
			// Every log line of this request names the client; never its key.
			MDC.put("clientId", clientId.value());
		}
		try {
			chain.doFilter(request, response);
		}
		finally {
			SecurityContextHolder.clearContext();
			MDC.remove("clientId");
		}
	}

	private Optional<CallerAuthentication> authenticate(String header) {
		if (header.length() <= BEARER.length() || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
			return Optional.empty();
		}
		String token = header.substring(BEARER.length()).strip();
		if (ApiKey.isWellFormed(token)) {
			ApiKey key = new ApiKey(token);
			return this.clients.authenticate(key)
				.map((clientId) -> CallerAuthentication.client(clientId, key.digest(), key.live()));
		}
		if (this.adminTokenDigest != null && MessageDigest.isEqual(this.adminTokenDigest, sha256(token))) {
			return Optional.of(CallerAuthentication.admin());
		}
		return Optional.empty();
	}

	private static byte[] sha256(String text) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required of every Java platform", ex);
		}
	}

}
