package io.payonce.client;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;

/**
 * The {@code Idempotency-Key} of one logical operation (one payment of one order, one
 * refund), owned by the caller: it is made once, stored with the caller's order
 * <em>before</em> the first attempt, and sent unchanged by every attempt of every call
 * for that operation, in this process or in the one that takes over after a crash. The
 * library never makes a key of its own and never changes one between attempts.
 *
 * <p>
 * A key is 1 to 255 visible ASCII characters (U+0021 to U+007E), the rule of the
 * service's {@code Idempotency-Key} header (README, "Request body"). A key with a comma
 * or a leading {@code "} is sent in the RFC 8941 string form, which names the same key.
 * Keys are scoped to the API client (the API key's owner) on the service.
 *
 * <p>
 * After a final answer (an approval, a decline, a failure) the key stays bound to it: the
 * service replays that answer to every later request with the key. A genuinely new
 * attempt to pay for the same order (another card after a decline) needs a new key, for
 * example {@code derived("checkout", orderId + "/2")}.
 *
 * @param value the key, as the service sees it
 */
public record IdempotencyKey(String value) {

	private static final SecureRandom RANDOM = new SecureRandom();

	private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

	/** The longest key the service takes, in characters. */
	public static final int MAX_LENGTH = 255;

	/** The longest namespace of {@link #derived(String, String)}, in characters. */
	public static final int MAX_NAMESPACE_LENGTH = 64;

	/**
	 * Checks the value.
	 * @throws IllegalArgumentException if it is empty, longer than {@value #MAX_LENGTH}
	 * characters, or has a character outside U+0021 to U+007E
	 */
	public IdempotencyKey {
		Objects.requireNonNull(value, "An idempotency key must not be null");
		if (value.isEmpty() || value.length() > MAX_LENGTH) {
			throw new IllegalArgumentException(
					"An idempotency key has 1 to " + MAX_LENGTH + " characters, got " + value.length());
		}
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c < 0x21 || c > 0x7E) {
				throw new IllegalArgumentException("An idempotency key has only visible ASCII characters (U+0021"
						+ " to U+007E); character " + i + " is U+" + String.format("%04X", (int) c));
			}
		}
	}

	/**
	 * A new key of 128 random bits from {@link SecureRandom}: {@code ik_} and 22
	 * base64url characters. Store it with the order before the first attempt, and use the
	 * stored key for every later attempt.
	 * @return a key no one else has
	 */
	public static IdempotencyKey random() {
		byte[] bits = new byte[16];
		RANDOM.nextBytes(bits);
		return new IdempotencyKey("ik_" + BASE64URL.encodeToString(bits));
	}

	/**
	 * The key of one business operation, computed from its names, so that every process
	 * that handles the same order computes the same key without storing it:
	 * {@code <namespace>:} and the base64url SHA-256 (43 characters) of the namespace, a
	 * NUL and the UTF-8 business id. The business id itself never appears in the header.
	 * @param namespace what kind of operation, for example {@code checkout} or
	 * {@code refund}: 1 to {@value #MAX_NAMESPACE_LENGTH} letters, digits, {@code .},
	 * {@code _} or {@code -}
	 * @param businessId the caller's id of the operation, for example an order id; not
	 * empty
	 * @return the same key for the same arguments, in every process and every version of
	 * this library
	 * @throws IllegalArgumentException if the namespace or the id breaks its rule
	 */
	public static IdempotencyKey derived(String namespace, String businessId) {
		Objects.requireNonNull(namespace, "namespace");
		Objects.requireNonNull(businessId, "businessId");
		if (namespace.isEmpty() || namespace.length() > MAX_NAMESPACE_LENGTH
				|| !namespace.chars().allMatch(IdempotencyKey::namespaceCharacter)) {
			throw new IllegalArgumentException("A key namespace has 1 to " + MAX_NAMESPACE_LENGTH
					+ " letters, digits, '.', '_' or '-', got '" + namespace + "'");
		}
		if (businessId.isEmpty()) {
			throw new IllegalArgumentException("A business id must not be empty");
		}
		MessageDigest sha256 = sha256();
		sha256.update(namespace.getBytes(StandardCharsets.US_ASCII));
		sha256.update((byte) 0);
		sha256.update(businessId.getBytes(StandardCharsets.UTF_8));
		return new IdempotencyKey(namespace + ":" + BASE64URL.encodeToString(sha256.digest()));
	}

	/**
	 * The header value: the key itself, or its RFC 8941 string form when the bare form
	 * would be read differently (a comma, which the service takes for two header lines
	 * joined, or a leading {@code "}).
	 * @return what the {@code Idempotency-Key} header carries
	 */
	String headerValue() {
		if (this.value.indexOf(',') < 0 && this.value.charAt(0) != '"') {
			return this.value;
		}
		return '"' + this.value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
	}

	/**
	 * Names the key without its value, so that logging an outcome never logs a key
	 * (whoever holds a key and the API key can read its stored answer); {@link #value()}
	 * gives the key itself.
	 */
	@Override
	public String toString() {
		return "IdempotencyKey[" + this.value.length() + " characters]";
	}

	private static boolean namespaceCharacter(int c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
				|| c == '-';
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java platform has SHA-256", ex);
		}
	}

}
