package dev.payonce.client.security;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.FilterChain;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;

import dev.payonce.client.ClientId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The read bulkhead's rules (docs/design.md section 13), with real threads holding reads
 * open on a latch: a client's reads over its share are 429, all reads over the total are
 * 503, writes and other clients are untouched, and every permit comes back.
 */
class ReadLimitFilterTests {

	private static final ClientId ALICE = new ClientId("cli_alice");

	private static final ClientId BOB = new ClientId("cli_bob");

	private final CountDownLatch release = new CountDownLatch(1);

	private final AtomicInteger passed = new AtomicInteger();

	/** One thread per held read (the common pool may have a single thread). */
	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void letHeldReadsFinish() {
		this.release.countDown();
		this.threads.shutdown();
		SecurityContextHolder.clearContext();
	}

	@Test
	void refusesAClientsReadBeyondItsShareWith429WhileAnotherClientStillReads() throws Exception {
		ReadLimitFilter filter = new ReadLimitFilter(1, 3);
		CompletableFuture<MockHttpServletResponse> held = hold(filter, ALICE);

		MockHttpServletResponse second = send(filter, ALICE, "GET", this::pass);
		MockHttpServletResponse other = send(filter, BOB, "GET", this::pass);

		assertThat(second.getStatus()).isEqualTo(429);
		assertThat(second.getHeader("Retry-After")).isEqualTo("1");
		assertThat(second.getContentAsString()).contains("/rate-limit-exceeded");
		assertThat(other.getStatus()).isEqualTo(200);
		assertThat(this.passed).hasValue(1);
		this.release.countDown();
		assertThat(held.get(10, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
	}

	@Test
	void refusesAnyReadBeyondTheTotalWith503AndNeverLimitsWrites() throws Exception {
		ReadLimitFilter filter = new ReadLimitFilter(2, 2);
		CompletableFuture<MockHttpServletResponse> first = hold(filter, ALICE);
		CompletableFuture<MockHttpServletResponse> second = hold(filter, BOB);

		MockHttpServletResponse third = send(filter, new ClientId("cli_carol"), "HEAD", this::pass);
		MockHttpServletResponse write = send(filter, ALICE, "POST", this::pass);

		assertThat(third.getStatus()).isEqualTo(503);
		assertThat(third.getHeader("Retry-After")).isEqualTo("1");
		assertThat(third.getContentAsString()).contains("/service-unavailable");
		assertThat(write.getStatus()).isEqualTo(200);
		this.release.countDown();
		assertThat(first.get(10, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
		assertThat(second.get(10, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
	}

	@Test
	void givesEveryPermitBackAfterAReadEndsOrFails() throws Exception {
		ReadLimitFilter filter = new ReadLimitFilter(1, 1);

		assertThatIllegalStateException().isThrownBy(() -> send(filter, ALICE, "GET", (request, response) -> {
			throw new IllegalStateException("the handler failed");
		}));
		MockHttpServletResponse after = send(filter, ALICE, "GET", this::pass);
		MockHttpServletResponse again = send(filter, BOB, "GET", this::pass);

		assertThat(after.getStatus()).isEqualTo(200);
		assertThat(again.getStatus()).isEqualTo(200);
		assertThat(filter.running(ALICE)).isZero();
		assertThat(filter.running(BOB)).isZero();
	}

	@Test
	void leavesTheAdministratorAndUnauthenticatedRequestsAlone() throws Exception {
		ReadLimitFilter filter = new ReadLimitFilter(1, 1);
		CompletableFuture<MockHttpServletResponse> held = hold(filter, ALICE);

		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.authenticated("admin", null, List.of()));
		MockHttpServletResponse admin = new MockHttpServletResponse();
		filter.doFilter(new MockHttpServletRequest("GET", "/admin/clients"), admin, this::pass);

		assertThat(admin.getStatus()).isEqualTo(200);
		this.release.countDown();
		held.get(10, TimeUnit.SECONDS);
	}

	/** A read by {@code client} that stays in the handler until {@link #release}. */
	private CompletableFuture<MockHttpServletResponse> hold(ReadLimitFilter filter, ClientId client)
			throws InterruptedException {
		CountDownLatch entered = new CountDownLatch(1);
		CompletableFuture<MockHttpServletResponse> held = CompletableFuture.supplyAsync(() -> {
			try {
				return send(filter, client, "GET", (request, response) -> {
					entered.countDown();
					try {
						this.release.await();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				});
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}, this.threads);
		assertThat(entered.await(10, TimeUnit.SECONDS)).as("the held read entered the handler").isTrue();
		return held;
	}

	private static MockHttpServletResponse send(ReadLimitFilter filter, ClientId client, String method,
			FilterChain chain) throws Exception {
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(client, null, List.of()));
		try {
			MockHttpServletResponse response = new MockHttpServletResponse();
			filter.doFilter(new MockHttpServletRequest(method, "/payments/x/refunds"), response, chain);
			return response;
		}
		finally {
			SecurityContextHolder.clearContext();
		}
	}

	private void pass(jakarta.servlet.ServletRequest request, jakarta.servlet.ServletResponse response) {
		this.passed.incrementAndGet();
	}

}
