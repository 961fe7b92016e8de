package dev.payonce.idempotency;

/**
 * A client-chosen string naming one logical operation (docs/design.md section 1; IETF
 * draft-ietf-httpapi-idempotency-key-header).
 *
 * <p>
 * Keys are compared exactly (case-sensitive) and are unique per client, never globally.
 *
 * @param value 1 to 255 visible ASCII characters ({@code 0x21}–{@code 0x7E})
 */
public record IdempotencyKey(String value) {

	/** The longest key accepted, in characters. */
	public static final int MAX_LENGTH = 255;

	/**
	 * Checks the key's length and alphabet.
	 * @throws IllegalArgumentException if the key is empty, longer than 255 characters or
	 * holds a character outside visible ASCII
	 */
	public IdempotencyKey {
		if (value.isEmpty() || value.length() > MAX_LENGTH) {
			throw new IllegalArgumentException(
					"Idempotency key must be 1-" + MAX_LENGTH + " characters, got " + value.length());
		}
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c < 0x21 || c > 0x7E) {
				throw new IllegalArgumentException(
						"Idempotency key must be visible ASCII; character at index " + i + " is not");
			}
		}
	}

	/**
	 * Reads the value of an {@code Idempotency-Key} header. The key may be sent bare
	 * ({@code abc}) or as an RFC 8941 sf-string ({@code "abc"}, with {@code \"} and
	 * {@code \\} escapes); both spellings name the same key. A comma outside an sf-string
	 * is refused: it is what an intermediary makes of two {@code Idempotency-Key} lines
	 * when it combines them (RFC 9110 section 5.3), and two keys name no one operation. A
	 * key that needs a comma is sent as an sf-string ({@code "a,b"}).
	 * @param headerValue the raw header field value
	 * @return the key
	 * @throws IllegalArgumentException if the value is not a valid key in either spelling
	 */
	public static IdempotencyKey fromHeader(String headerValue) {
		String trimmed = headerValue.strip();
		if (trimmed.startsWith("\"")) {
			return new IdempotencyKey(parseSfString(trimmed));
		}
		if (trimmed.indexOf(',') >= 0) {
			throw new IllegalArgumentException(
					"Idempotency key holds a comma outside an RFC 8941 string, as two combined header lines would");
		}
		return new IdempotencyKey(trimmed);
	}

	/** RFC 8941 section 4.2.5, for an Item without parameters. */
	private static String parseSfString(String input) {
		StringBuilder out = new StringBuilder(input.length());
		for (int i = 1; i < input.length(); i++) {
			char c = input.charAt(i);
			if (c == '\\') {
				if (i + 1 >= input.length()) {
					throw new IllegalArgumentException("Idempotency key string ends inside an escape");
				}
				char next = input.charAt(++i);
				if (next != '"' && next != '\\') {
					throw new IllegalArgumentException("Idempotency key string has an invalid escape");
				}
				out.append(next);
			}
			else if (c == '"') {
				if (i != input.length() - 1) {
					throw new IllegalArgumentException("Idempotency key string has content after its closing quote");
				}
				return out.toString();
			}
			else if (c < 0x20 || c > 0x7E) {
				throw new IllegalArgumentException("Idempotency key string holds a character outside printable ASCII");
			}
			else {
				out.append(c);
			}
		}
		throw new IllegalArgumentException("Idempotency key string has no closing quote");
	}

	/**
	 * Never prints the key itself: keys may be guessable business identifiers and must
	 * not reach logs ({@link KeyDigests} gives the digest a log line may carry).
	 */
	@Override
	public String toString() {
		return "IdempotencyKey[length=" + this.value.length() + "]";
	}

}
