package dev.payonce.client;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * A client's secret API key: {@code sk_live_} or {@code sk_test_} followed by 32 random
 * bytes in base64url (43 characters). Payonce stores only its SHA-256 {@link #digest()};
 * the secret itself is shown once, when issued, and never logged ({@link #toString()}
 * masks it).
 *
 * @param secret the whole key as the client sends it
 */
public record ApiKey(String secret) {

	private static final String LIVE_PREFIX = "sk_live_";

	private static final String TEST_PREFIX = "sk_test_";

	private static final int PREFIX_LENGTH = 8;

	private static final int RANDOM_LENGTH = 43;

	private static final SecureRandom RANDOM = new SecureRandom();

	/**
	 * Checks the format.
	 * @throws IllegalArgumentException if {@code secret} is not a well-formed key
	 */
	public ApiKey {
		if (!isWellFormed(secret)) {
			throw new IllegalArgumentException(
					"An API key is sk_live_ or sk_test_ followed by 43 base64url characters");
		}
	}

	/**
	 * A new random key.
	 * @param live {@code true} for {@code sk_live_}, {@code false} for {@code sk_test_}
	 * @return the key
	 */
	public static ApiKey generate(boolean live) {
		byte[] bytes = new byte[32];
		RANDOM.nextBytes(bytes);
		return new ApiKey(
				(live ? LIVE_PREFIX : TEST_PREFIX) + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
	}

	/**
	 * Whether a bearer token has the shape of an API key (not whether it is valid).
	 * @param token the token
	 * @return {@code true} if it matches {@code sk_(live|test)_} plus 43 base64url
	 * characters
	 */
	public static boolean isWellFormed(String token) {
		// A loop, not a regular expression: every authenticated request checks its token
		// (docs/performance.md). ClientFormatsTests holds it equal to the pattern in the
		// Javadoc.
		if (token.length() != PREFIX_LENGTH + RANDOM_LENGTH
				|| !(token.startsWith(LIVE_PREFIX) || token.startsWith(TEST_PREFIX))) {
			return false;
		}
		for (int i = PREFIX_LENGTH; i < token.length(); i++) {
			if (!ClientId.isBase64Url(token.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The key's mode: whether it is a live key ({@code sk_live_}) rather than a test key
	 * ({@code sk_test_}). A test key may only move test money: a gateway of the other
	 * mode refuses it (docs/design.md section 5, "One mode per adapter").
	 * @return {@code true} for {@code sk_live_}
	 */
	public boolean live() {
		return this.secret.startsWith(LIVE_PREFIX);
	}

	/**
	 * The SHA-256 digest the key is stored and looked up by, so that no secret is
	 * compared character by character and a database leak reveals no usable key.
	 * @return 64 lower-case hex digits
	 */
	public String digest() {
		return sha256Hex(this.secret);
	}

	/**
	 * A hint operators may see: the prefix and the last four characters.
	 * @return for example {@code sk_test_...x9Qa}
	 */
	public String hint() {
		return this.secret.substring(0, 8) + "..." + this.secret.substring(this.secret.length() - 4);
	}

	@Override
	public String toString() {
		return "ApiKey[" + hint() + "]";
	}

	static String sha256Hex(String text) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required of every Java platform", ex);
		}
	}

}
