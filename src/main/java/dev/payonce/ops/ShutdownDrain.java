package dev.payonce.ops;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.payonce.web.ApiProblem;
import dev.payonce.web.Problems;

/**
 * The first phase of a graceful shutdown (SIGTERM or a closing context): from then on
 * every new request, health checks included, is answered {@code 503 service-unavailable}
 * with {@code Retry-After} and {@code Connection: close} before anything reads or writes,
 * while the requests already in flight run to their end: none is cut off between its
 * claim and its answer.
 *
 * <p>
 * {@link #stop(Runnable)} reports this phase done once no request is in flight, or the
 * lifecycle processor stops waiting after
 * {@code spring.lifecycle.timeout-per-shutdown-phase}. Tomcat's graceful shutdown
 * ({@code server.shutdown=graceful}) then closes the connector, and the connection pool
 * closes last. Tomcat's graceful shutdown alone would stop accepting connections at once,
 * so a request arriving during the drain would meet a refused or reset connection instead
 * of an answer it can act on.
 */
@Component
// After LogContextFilter, so that a refusal carries the request id.
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class ShutdownDrain extends OncePerRequestFilter implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(ShutdownDrain.class);

	private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

	private final AtomicInteger inFlight = new AtomicInteger();

	private final Object drained = new Object();

	private volatile boolean draining;

	private volatile boolean running;

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		// Counted before the check: stop() sets the flag before it reads the count, so a
		// request either sees the drain or is waited for.
		this.inFlight.incrementAndGet();
		try {
			if (this.draining) {
				refuse(request, response);
				return;
			}
			chain.doFilter(request, response);
		}
		finally {
			if (this.inFlight.decrementAndGet() == 0 && this.draining) {
				synchronized (this.drained) {
					this.drained.notifyAll();
				}
			}
		}
	}

	private static void refuse(HttpServletRequest request, HttpServletResponse response) throws IOException {
		ProblemDetail problem = Problems.of(HttpStatus.SERVICE_UNAVAILABLE, "service-unavailable",
				"Service unavailable",
				"This instance is shutting down. Retry, with the same Idempotency-Key: another instance or the restarted one answers.");
		response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(ApiProblem.retryAfterSeconds(RETRY_AFTER)));
		response.setHeader(HttpHeaders.CONNECTION, "close");
		Problems.write(request, response, problem);
	}

	@Override
	public void start() {
		this.draining = false;
		this.running = true;
	}

	@Override
	public void stop() {
		this.draining = true;
		awaitDrained();
		this.running = false;
	}

	@Override
	public void stop(Runnable callback) {
		this.draining = true;
		log.info("Shutting down: new requests are answered 503; waiting for {} in flight", this.inFlight.get());
		Thread.ofVirtual().name("shutdown-drain").start(() -> {
			awaitDrained();
			this.running = false;
			log.info("Shutting down: no request in flight");
			callback.run();
		});
	}

	private void awaitDrained() {
		synchronized (this.drained) {
			while (this.inFlight.get() > 0) {
				try {
					this.drained.wait(100);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** Stops before Tomcat's graceful shutdown, whose phase is lower. */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE;
	}

}
