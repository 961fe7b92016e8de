package dev.payonce.idempotency;

import java.util.Map;

/**
 * The finished response of an operation, stored with its record and replayed byte for
 * byte to every retry with the same key and fingerprint (docs/design.md section 2).
 *
 * @param status the HTTP status code
 * @param headers the selected headers to replay (for example {@code Content-Type} and
 * {@code Location}), by name
 * @param body the exact response body, UTF-8 text
 */
public record StoredResponse(int status, Map<String, String> headers, String body) {

	/**
	 * Copies the headers so the stored response cannot change.
	 * @throws IllegalArgumentException if {@code status} is not an HTTP status code
	 */
	public StoredResponse {
		if (status < 100 || status > 599) {
			throw new IllegalArgumentException("HTTP status must be 100-599, got " + status);
		}
		headers = Map.copyOf(headers);
	}

}
