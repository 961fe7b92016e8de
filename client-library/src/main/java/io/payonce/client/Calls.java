package io.payonce.client;

import java.util.function.Function;

/**
 * What every operation shares: the retry loop, and the reading of a read's answer.
 */
final class Calls {

	private final RetryLoop loop;

	Calls(RetryLoop loop) {
		this.loop = loop;
	}

	RetryLoop.CallResult run(ApiRequest request) {
		return this.loop.run(request);
	}

	/**
	 * A read: its documented success, parsed, or an exception.
	 * @throws ProblemException for a problem answered
	 * @throws UnavailableException if no final answer came
	 */
	<T> T read(ApiRequest request, Function<byte[], T> parse) {
		return switch (run(request)) {
			case RetryLoop.CallResult.Answered answered when answered.response().status() == 200 ->
				parse.apply(answered.response().body());
			case RetryLoop.CallResult.Answered answered -> throw problem(answered.response());
			case RetryLoop.CallResult.GaveUp gaveUp -> throw new UnavailableException(request.operation(),
					gaveUp.reason(), gaveUp.attempts(), gaveUp.retryAfter(), null);
		};
	}

	/**
	 * The exception for a final answer that is not an outcome of the operation.
	 */
	static PayonceException problem(ApiResponse response) {
		return Json.problem(response)
			.<PayonceException>map(ProblemException::of)
			.orElseGet(() -> new UnexpectedAnswerException("Status " + response.status() + " without a problem body"
					+ ((response.requestId() != null) ? " (" + response.requestId() + ")" : ""), null));
	}

}
