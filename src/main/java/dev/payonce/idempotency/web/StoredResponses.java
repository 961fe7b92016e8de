package dev.payonce.idempotency.web;

import java.nio.charset.StandardCharsets;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;

import dev.payonce.idempotency.StoredResponse;

/**
 * Renders a stored response (docs/design.md section 2): its status, its stored headers
 * and its body byte for byte, plus {@code Idempotent-Replayed: true} when it is a replay.
 */
public final class StoredResponses {

	private StoredResponses() {
	}

	/**
	 * The HTTP answer of a stored response.
	 * @param response the stored response
	 * @param replayed {@code true} when an earlier request stored it
	 * @return the answer, body as UTF-8 bytes
	 */
	public static ResponseEntity<byte[]> render(StoredResponse response, boolean replayed) {
		HttpHeaders headers = new HttpHeaders();
		response.headers().forEach(headers::set);
		if (replayed) {
			headers.set(IdempotencyHeaders.IDEMPOTENT_REPLAYED, "true");
		}
		return ResponseEntity.status(response.status())
			.headers(headers)
			.body(response.body().getBytes(StandardCharsets.UTF_8));
	}

}
