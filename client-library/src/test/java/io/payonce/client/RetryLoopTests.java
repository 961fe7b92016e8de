package io.payonce.client;

import java.net.ConnectException;
import java.net.SocketException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RetryLoopTests {

	private static final String PAYMENT = """
			{"id":"6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a","orderId":"order-1","amount":1200,"currency":"ILS",\
			"refundedAmount":0,"status":"SUCCEEDED","providerReference":"sim_ch_1","createdAt":"2026-12-02T10:00:00Z"}""";

	private static final ApiRequest CREATE = new ApiRequest("createPayment", "POST", "payments",
			"{\"orderId\":\"order-1\"}".getBytes(), new IdempotencyKey("key-1"));

	private final RetryPolicy policy = RetryPolicy.defaults()
		.withMaxAttempts(5)
		.withDeadline(Duration.ofSeconds(10))
		.withAttemptTimeout(Duration.ofSeconds(3))
		.withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1));

	@Test
	void retriesFailuresWithTheSameRequestUntilAnAnswer() {
		ScriptedTransport transport = new ScriptedTransport().fail(new ConnectException("refused"), Duration.ZERO)
			.fail(new SocketException("Connection reset"), Duration.ofMillis(5))
			.timeOut()
			.problem(503, "payment-outcome-unknown", "1", "paymentId", "6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a")
			.answer(201, PAYMENT);

		RetryLoop.CallResult result = transport.loop(this.policy).run(CREATE);

		assertThat(result).isInstanceOfSatisfying(RetryLoop.CallResult.Answered.class, (answered) -> {
			assertThat(answered.response().status()).isEqualTo(201);
			assertThat(answered.attempts()).isEqualTo(5);
		});
		assertThat(transport.requests).hasSize(5).allSatisfy((request) -> assertThat(request).isSameAs(CREATE));
		assertThat(transport.attempts).extracting(Attempt::retried).containsExactly(true, true, true, true, false);
	}

	@Test
	void neverRetriesAFinalClientError() {
		for (int status : new int[] { 400, 401, 402, 403, 404, 409, 413, 415, 422 }) {
			ScriptedTransport transport = new ScriptedTransport().problem(status, "some-problem", "1");

			RetryLoop.CallResult result = transport.loop(this.policy).run(CREATE);

			assertThat(result).as("status %d", status).isInstanceOf(RetryLoop.CallResult.Answered.class);
			assertThat(transport.requests).as("status %d", status).hasSize(1);
			assertThat(transport.waits).isEmpty();
		}
	}

	@Test
	void waitsExactlyTheRetryAfterOfTheAnswer() {
		ScriptedTransport transport = new ScriptedTransport().problem(409, "idempotency-request-in-progress", "2")
			.problem(429, "rate-limit-exceeded", "Wed, 02 Dec 2026 10:00:05 GMT")
			.answer(201, PAYMENT);

		transport.loop(this.policy).run(CREATE);

		// The second answer arrives at 10:00:02, so its date means three seconds.
		assertThat(transport.waits).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(3));
	}

	@Test
	void backsOffWithinTheDoublingCapWithoutRetryAfter() {
		ScriptedTransport transport = new ScriptedTransport();
		for (int i = 0; i < 4; i++) {
			transport.fail(new ConnectException("refused"), Duration.ZERO);
		}
		transport.answer(201, PAYMENT);

		transport.loop(this.policy).run(CREATE);

		assertThat(transport.waits).hasSize(4);
		for (int retry = 1; retry <= 4; retry++) {
			assertThat(transport.waits.get(retry - 1)).isBetween(Duration.ZERO, this.policy.backoffCap(retry));
		}
	}

	@Test
	void stopsAfterTheLastAttempt() {
		ScriptedTransport transport = new ScriptedTransport();
		for (int i = 0; i < 5; i++) {
			transport.fail(new SocketException("Connection reset"), Duration.ZERO);
		}

		RetryLoop.CallResult result = transport.loop(this.policy).run(CREATE);

		assertThat(result).isInstanceOfSatisfying(RetryLoop.CallResult.GaveUp.class, (gaveUp) -> {
			assertThat(gaveUp.attempts()).isEqualTo(5);
			assertThat(gaveUp.reason()).isEqualTo(OutcomeUnknown.Reason.CONNECTION_FAILED);
		});
		assertThat(transport.requests).hasSize(5);
		assertThat(transport.waits).hasSize(4);
	}

	@Test
	void endsWithinTheDeadlineCuttingTheLastAttemptsTimeout() {
		RetryPolicy policy = this.policy.withMaxAttempts(100);
		ScriptedTransport transport = new ScriptedTransport();
		for (int i = 0; i < 100; i++) {
			transport.timeOut();
		}

		RetryLoop.CallResult result = transport.loop(policy).run(CREATE);

		assertThat(result).isInstanceOfSatisfying(RetryLoop.CallResult.GaveUp.class,
				(gaveUp) -> assertThat(gaveUp.reason()).isEqualTo(OutcomeUnknown.Reason.TIMED_OUT));
		assertThat(transport.elapsed()).isLessThanOrEqualTo(policy.deadline());
		assertThat(transport.timeouts)
			.allSatisfy((timeout) -> assertThat(timeout).isPositive().isLessThanOrEqualTo(policy.attemptTimeout()));
		assertThat(transport.timeouts.getLast()).isLessThan(policy.attemptTimeout());
	}

	@Test
	void givesUpAtOnceWhenRetryAfterReachesPastTheDeadline() {
		ScriptedTransport transport = new ScriptedTransport().problem(503, "service-unavailable", "30");

		RetryLoop.CallResult result = transport.loop(this.policy).run(CREATE);

		assertThat(result).isInstanceOfSatisfying(RetryLoop.CallResult.GaveUp.class, (gaveUp) -> {
			assertThat(gaveUp.attempts()).isEqualTo(1);
			assertThat(gaveUp.retryAfter()).contains(Duration.ofSeconds(30));
		});
		assertThat(transport.waits).isEmpty();
		assertThat(transport.elapsed()).isLessThan(this.policy.deadline());
	}

	@Test
	void listenerFailureChangesNothing() {
		ScriptedTransport transport = new ScriptedTransport().fail(new ConnectException("refused"), Duration.ZERO)
			.answer(201, PAYMENT, Map.of("Request-Id", List.of("req_0000000000000000000000")), Duration.ZERO);
		RetryLoop loop = new RetryLoop(transport, this.policy, (attempt) -> {
			throw new IllegalStateException("listener bug");
		}, System::nanoTime, (wait) -> {
		}, java.time.Clock.systemUTC(), java.util.concurrent.ThreadLocalRandom::current);

		RetryLoop.CallResult result = loop.run(CREATE);

		assertThat(result).isInstanceOf(RetryLoop.CallResult.Answered.class);
		assertThat(transport.requests).hasSize(2);
	}

}
