package io.payonce.client;

import java.io.IOException;
import java.time.Duration;

/** Sends one attempt and reads its whole answer, within a timeout. */
interface Transport {

	/**
	 * Sends the request once.
	 * @param request what to send
	 * @param timeout the longest wait for the whole answer
	 * @return the answer
	 * @throws IOException if no whole answer arrived (refused, reset, closed early, timed
	 * out: {@link java.net.http.HttpTimeoutException})
	 * @throws InterruptedException if the calling thread was interrupted
	 */
	ApiResponse send(ApiRequest request, Duration timeout) throws IOException, InterruptedException;

}
