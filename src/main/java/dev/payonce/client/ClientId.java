package dev.payonce.client;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Identifier of an authenticated caller. Idempotency keys and payments are unique per
 * client, never globally (docs/design.md section 1).
 *
 * @param value 1 to 64 characters of letters, digits, {@code _} and {@code -}
 */
public record ClientId(String value) {

	private static final SecureRandom RANDOM = new SecureRandom();

	/**
	 * Checks the format.
	 * @throws IllegalArgumentException if {@code value} is not 1 to 64 of
	 * {@code [A-Za-z0-9_-]}
	 */
	public ClientId {
		if (!isWellFormed(value)) {
			throw new IllegalArgumentException("Client id must be 1-64 characters of [A-Za-z0-9_-]");
		}
	}

	/**
	 * A new random client id.
	 * @return {@code cli_} followed by 16 random base64url characters
	 */
	public static ClientId random() {
		byte[] bytes = new byte[12];
		RANDOM.nextBytes(bytes);
		return new ClientId("cli_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
	}

	@Override
	public String toString() {
		return this.value;
	}

	/**
	 * Whether {@code value} is 1 to 64 of {@code [A-Za-z0-9_-]}: a loop, not a regular
	 * expression, since every payment and refund reads its client id
	 * (docs/performance.md). {@code ClientFormatsTests} holds it equal to that pattern.
	 * @param value the candidate
	 * @return {@code true} if it is a well-formed client id
	 */
	static boolean isWellFormed(String value) {
		if (value.isEmpty() || value.length() > 64) {
			return false;
		}
		for (int i = 0; i < value.length(); i++) {
			if (!isBase64Url(value.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Whether {@code c} is in the base64url alphabet (RFC 4648 section 5,
	 * {@code [A-Za-z0-9_-]}), which client ids and API keys are drawn from.
	 * @param c the character
	 * @return {@code true} if it is a base64url character
	 */
	static boolean isBase64Url(char c) {
		return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
	}

}
