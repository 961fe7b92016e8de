package dev.payonce.payment.web;

import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.payonce.idempotency.IdempotencyKey;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Idempotency-Key pattern the OpenAPI document publishes admits exactly the header
 * values the engine accepts, so a client that validates against the document never sends
 * a key the service refuses, nor refuses one it would take. The pattern uses only syntax
 * that ECMA-262 and Java read alike.
 */
class PaymentOperationsTests {

	private static final Pattern KEY = Pattern.compile(PaymentOperations.KEY_PATTERN);

	@ParameterizedTest
	@ValueSource(
			strings = { "abc", "order-123-attempt-1", "\"abc\"", "\"a\\\"b\"", "\"a\\\\b\"", "ab\"c", "~!#$%&'()*+",
					"\"a,b\"", "a,b", "", "a b", "\"abc", "\"a\\x\"", "\"abc\"x", "\"\"", "\"a b\"", "k\u00e9", "\"" })
	void admitsExactlyTheKeysTheEngineAccepts(String header) {
		assertThat(KEY.matcher(header).matches()).as("pattern on %s", header).isEqualTo(accepted(header));
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 255, 256 })
	void boundsTheLengthLikeTheEngine(int length) {
		String bare = "k".repeat(length);
		String quoted = "\"" + bare + "\"";

		assertThat(KEY.matcher(bare).matches()).isEqualTo(accepted(bare));
		assertThat(KEY.matcher(quoted).matches()).isEqualTo(accepted(quoted));
	}

	private static boolean accepted(String header) {
		try {
			IdempotencyKey.fromHeader(header);
			return true;
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

}
