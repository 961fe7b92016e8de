package io.payonce.client;

import java.io.IOException;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Transport} that plays a script of answers and failures on a clock of its own:
 * each step takes the time it says (a timeout takes the attempt's whole timeout), and
 * waits between attempts move the same clock, so deadlines are tested without sleeping.
 * Records every request and timeout it was given.
 */
final class ScriptedTransport implements Transport {

	static final Instant START = Instant.parse("2026-12-02T10:00:00Z");

	private final AtomicLong nanos = new AtomicLong();

	private final Deque<Step> steps = new ArrayDeque<>();

	final List<ApiRequest> requests = new ArrayList<>();

	final List<Duration> timeouts = new ArrayList<>();

	final List<Duration> waits = new ArrayList<>();

	final List<Attempt> attempts = new ArrayList<>();

	ScriptedTransport answer(int status, String body, Map<String, List<String>> headers, Duration takes) {
		this.steps.add(new Step(new ApiResponse(status, HttpHeaders.of(headers, (name, value) -> true),
				body.getBytes(StandardCharsets.UTF_8)), null, takes));
		return this;
	}

	ScriptedTransport answer(int status, String body) {
		return answer(status, body, Map.of("Request-Id", List.of("req_0000000000000000000000")), Duration.ZERO);
	}

	ScriptedTransport problem(int status, String slug, String retryAfter, String... members) {
		StringBuilder body = new StringBuilder(
				"{\"type\":\"https://payonce.dev/problems/" + slug + "\",\"title\":\"t\",\"status\":" + status);
		for (int i = 0; i < members.length; i += 2) {
			body.append(",\"").append(members[i]).append("\":\"").append(members[i + 1]).append('"');
		}
		body.append('}');
		Map<String, List<String>> headers = (retryAfter != null) ? Map.of("Retry-After", List.of(retryAfter))
				: Map.of();
		return answer(status, body.toString(), headers, Duration.ZERO);
	}

	ScriptedTransport fail(IOException failure, Duration takes) {
		this.steps.add(new Step(null, failure, takes));
		return this;
	}

	ScriptedTransport timeOut() {
		this.steps.add(new Step(null, new java.net.http.HttpTimeoutException("timed out"), null));
		return this;
	}

	/** A retry loop on this transport's clock, with a seeded jitter source. */
	RetryLoop loop(RetryPolicy policy) {
		Clock clock = new Clock() {

			@Override
			public ZoneOffset getZone() {
				return ZoneOffset.UTC;
			}

			@Override
			public Clock withZone(java.time.ZoneId zone) {
				return this;
			}

			@Override
			public Instant instant() {
				return START.plusNanos(ScriptedTransport.this.nanos.get());
			}

		};
		SplittableRandom random = new SplittableRandom(7);
		return new RetryLoop(this, policy, this.attempts::add, this.nanos::get, (wait) -> {
			this.waits.add(wait);
			this.nanos.addAndGet(wait.toNanos());
		}, clock, () -> random);
	}

	Duration elapsed() {
		return Duration.ofNanos(this.nanos.get());
	}

	@Override
	public ApiResponse send(ApiRequest request, Duration timeout) throws IOException {
		this.requests.add(request);
		this.timeouts.add(timeout);
		Step step = this.steps.poll();
		if (step == null) {
			throw new AssertionError("The script has no step for attempt " + this.requests.size());
		}
		Duration takes = (step.takes() != null) ? step.takes() : timeout;
		if (takes.compareTo(timeout) > 0) {
			this.nanos.addAndGet(timeout.toNanos());
			throw new java.net.http.HttpTimeoutException("No whole answer within " + timeout);
		}
		this.nanos.addAndGet(takes.toNanos());
		if (step.failure() != null) {
			throw step.failure();
		}
		return step.response();
	}

	private record Step(ApiResponse response, IOException failure, Duration takes) {

	}

}
