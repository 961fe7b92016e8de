package dev.payonce.client;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * Identifier of an authenticated caller. Idempotency keys and payments are unique per
 * client, never globally (docs/design.md section 1).
 *
 * @param value 1 to 64 characters of letters, digits, {@code _} and {@code -}
 */
public record ClientId(String value) {

	private static final Pattern FORMAT = Pattern.compile("[A-Za-z0-9_-]{1,64}");

	private static final SecureRandom RANDOM = new SecureRandom();

	/**
	 * Checks the format.
	 * @throws IllegalArgumentException if {@code value} is not 1 to 64 of
	 * {@code [A-Za-z0-9_-]}
	 */
	public ClientId {
		if (!FORMAT.matcher(value).matches()) {
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

}
