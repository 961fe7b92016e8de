package io.payonce.client;

import java.net.http.HttpHeaders;
import java.util.Optional;

/**
 * One answer, read whole.
 *
 * @param status the HTTP status
 * @param headers its headers
 * @param body its body, empty if none
 */
record ApiResponse(int status, HttpHeaders headers, byte[] body) {

	Optional<String> header(String name) {
		return this.headers.firstValue(name);
	}

	/** The service's {@code Request-Id} of this answer, or {@code null}. */
	String requestId() {
		return header("Request-Id").orElse(null);
	}

	boolean replayed() {
		return header("Idempotent-Replayed").map("true"::equalsIgnoreCase).orElse(false);
	}

}
