package dev.payonce.client.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import com.nulabinc.zxcvbn.StandardDictionaries;
import com.nulabinc.zxcvbn.Zxcvbn;
import com.nulabinc.zxcvbn.matchers.Dictionary;
import org.jspecify.annotations.Nullable;

import dev.payonce.client.SecurityProperties;

/**
 * What an admin token must be before Payonce starts with it (docs/design.md section 13).
 * The rule a user can follow: <b>32 or more bytes from a cryptographically secure
 * generator, written as base64url, base64 or hex</b>, for example
 * {@code openssl rand -base64 32 | tr '+/' '-_' | tr -d '='} or
 * {@code head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '='} (43 characters).
 * The checks below refuse what breaks that rule in ways a start-up can see:
 * <ul>
 * <li>surrounding whitespace (a secret file's trailing newline): an Authorization header
 * can never carry it, so every admin call would be refused;</li>
 * <li>an {@code sk_} prefix: the token would be read as an API key;</li>
 * <li>a character outside RFC 6750's b64token;</li>
 * <li>the development token the README publishes for the {@code local} profile, anywhere
 * else, whatever its strength (like the development client's published API key);</li>
 * <li>a UUID: 122 random bits, but a shape people paste from examples and documentation
 * rather than generate;</li>
 * <li>fewer than 43 characters (64 when the token is all hex digits): less than 32 bytes
 * whatever the encoding;</li>
 * <li>hex or base64 of text (base64 of {@code passwordpassword...}), of bytes that mostly
 * repeat or count up or down, or of the MD5, SHA-1, SHA-256 or SHA-512 digest of a word
 * of zxcvbn's dictionaries (the hex SHA-256 of {@code admin}, with or without
 * {@code echo}'s newline): random-looking characters with nothing random behind
 * them;</li>
 * <li>a zxcvbn estimate under 10^{@value #MIN_GUESSES_LOG10} guesses: words, dates,
 * repeats, sequences and keyboard patterns ({@code payonce-production-admin-token-2026},
 * {@code qwertyuiop2026...}).</li>
 * </ul>
 * Messages name the rule, never the token.
 *
 * <p>
 * zxcvbn is Dropbox's password-strength estimator, in the nulab port; it estimates 32
 * random bytes in base64url at 10^41 or more and in hex at 10^58 or more (3,000 samples
 * each), and a six-word phrase at about 10^40 at most. The dictionary digests are
 * computed only for the one algorithm whose length matches the decoded token, once at
 * start-up (about 400,000 digests, a fraction of a second).
 */
final class AdminTokenPolicy {

	/**
	 * The fewest guesses zxcvbn must estimate, as a power of ten: 10^38, about 126 bits.
	 */
	static final double MIN_GUESSES_LOG10 = 38;

	/**
	 * The admin token the README publishes for the {@code local} profile
	 * (application-local.properties).
	 */
	static final String PUBLISHED_DEVELOPMENT_TOKEN = "local-admin-token-for-development-only";

	/** The fewest characters of a token that is all hex digits: 32 bytes. */
	static final int MIN_HEX_LENGTH = 64;

	/**
	 * The fewest distinct byte values among 32 decoded bytes; random ones hold about 30.
	 */
	static final int MIN_DISTINCT_BYTES = 16;

	/**
	 * RFC 6750's b64token: what a bearer token may hold, so that the header always
	 * carries it unchanged.
	 */
	private static final Pattern B64TOKEN = Pattern.compile("[A-Za-z0-9._~+/-]+=*");

	private static final Pattern UUID = Pattern
		.compile("\\{?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}}?");

	private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]+");

	private static final Pattern BASE64 = Pattern.compile("[A-Za-z0-9+/]+={0,2}");

	private static final Pattern BASE64URL = Pattern.compile("[A-Za-z0-9_-]+={0,2}");

	private static final String NAME = "payonce.security.admin-token";

	private static final String GENERATE = "generate one with: openssl rand -base64 32 | tr '+/' '-_' | tr -d '='";

	private AdminTokenPolicy() {
	}

	/**
	 * The first rule the token breaks.
	 * @param token the configured token, {@code null} if none
	 * @param required whether this process runs outside the {@code local} profile: a
	 * token must then be set, and the published development token is refused
	 * @return a message that starts with the setting's name and says what to change, or
	 * empty if the token is acceptable
	 */
	static Optional<String> violation(@Nullable String token, boolean required) {
		if (token == null || token.isEmpty()) {
			return required
					? Optional
						.of(NAME + " is required outside the local profile (PAYONCE_SECURITY_ADMIN_TOKEN); " + GENERATE)
					: Optional.empty();
		}
		if (token.equals(PUBLISHED_DEVELOPMENT_TOKEN)) {
			return required ? Optional.of(NAME + " is the development token the README publishes for the local "
					+ "profile: anyone who read it can use the admin API. Outside the local profile set your own; "
					+ GENERATE) : Optional.empty();
		}
		if (!token.strip().equals(token)) {
			return Optional.of(NAME + " has leading or trailing whitespace (a secret read from a file often ends in "
					+ "a newline): remove it. An Authorization header can never carry it, so every admin call would "
					+ "be refused.");
		}
		if (token.regionMatches(true, 0, "sk_", 0, 3)) {
			return Optional.of(NAME + " starts with sk_ like an API key and would be read as one: choose a token "
					+ "that does not look like an API key; " + GENERATE);
		}
		if (!B64TOKEN.matcher(token).matches()) {
			return Optional.of(NAME + " may hold only letters, digits and - . _ ~ + / (with = at the end), "
					+ "as a bearer token (RFC 6750)");
		}
		if (UUID.matcher(token).matches()) {
			return Optional.of(NAME + " is a UUID, a shape copied from examples more often than generated: use 32 "
					+ "random bytes; " + GENERATE);
		}
		boolean hex = HEX.matcher(token).matches();
		int minimum = hex ? MIN_HEX_LENGTH : SecurityProperties.MIN_ADMIN_TOKEN_LENGTH;
		if (token.length() < minimum) {
			return Optional.of(NAME + " must be at least " + minimum + " characters" + (hex ? " of hex" : "")
					+ " (32 random bytes), got " + token.length() + "; " + GENERATE);
		}
		Optional<String> decodedViolation = decode(token, hex).flatMap(AdminTokenPolicy::decodedViolation);
		if (decodedViolation.isPresent()) {
			return decodedViolation;
		}
		double guessesLog10 = new Zxcvbn().measure(token).getGuessesLog10();
		if (guessesLog10 < MIN_GUESSES_LOG10) {
			return Optional.of(NAME + " is too easy to guess (words, dates, repeats, sequences or keyboard patterns; "
					+ "estimated 10^" + Math.round(Math.floor(guessesLog10)) + " guesses, at least 10^"
					+ Math.round(MIN_GUESSES_LOG10) + " required): use random bytes; " + GENERATE);
		}
		return Optional.empty();
	}

	/**
	 * The bytes a token spells if it is hex, base64 or base64url (padded or not), or
	 * empty if it is none of them.
	 */
	static Optional<byte[]> decode(String token, boolean hex) {
		try {
			if (hex) {
				return (token.length() % 2 == 0) ? Optional.of(HexFormat.of().parseHex(token)) : Optional.empty();
			}
			if (BASE64.matcher(token).matches()) {
				return Optional.of(Base64.getDecoder().decode(padded(token)));
			}
			if (BASE64URL.matcher(token).matches()) {
				return Optional.of(Base64.getUrlDecoder().decode(padded(token)));
			}
		}
		catch (IllegalArgumentException ex) {
			// Not a valid encoding (a length no encoder produces): judged as characters.
		}
		return Optional.empty();
	}

	private static String padded(String token) {
		String bare = token.replace("=", "");
		return bare + "=".repeat((4 - bare.length() % 4) % 4);
	}

	private static Optional<String> decodedViolation(byte[] bytes) {
		if (isText(bytes)) {
			return Optional
				.of(NAME + " is hex or base64 of text, not of random bytes: encode 32 random bytes; " + GENERATE);
		}
		int least = Math.min(MIN_DISTINCT_BYTES, bytes.length / 2);
		if (distinct(bytes) < least || distinctSteps(bytes) < least) {
			return Optional
				.of(NAME + " is hex or base64 of bytes that mostly repeat or count up or down, not of random bytes; "
						+ GENERATE);
		}
		if (isDictionaryDigest(bytes)) {
			return Optional
				.of(NAME + " is the hex or base64 of a hash of a dictionary word (MD5, SHA-1, SHA-256 or SHA-512), "
						+ "which anyone can compute: encode 32 random bytes instead; " + GENERATE);
		}
		return Optional.empty();
	}

	/** Whether every byte is printable ASCII or a tab, CR or LF. */
	private static boolean isText(byte[] bytes) {
		for (byte b : bytes) {
			if ((b < 0x20 || b > 0x7E) && b != '\t' && b != '\n' && b != '\r') {
				return false;
			}
		}
		return true;
	}

	private static int distinct(byte[] bytes) {
		boolean[] seen = new boolean[256];
		int count = 0;
		for (byte b : bytes) {
			if (!seen[b & 0xFF]) {
				seen[b & 0xFF] = true;
				count++;
			}
		}
		return count;
	}

	/**
	 * How many distinct differences between neighbouring bytes: one for
	 * {@code 00 01 02 ...}; random bytes have about as many as bytes.
	 */
	private static int distinctSteps(byte[] bytes) {
		byte[] steps = new byte[Math.max(0, bytes.length - 1)];
		for (int i = 1; i < bytes.length; i++) {
			steps[i - 1] = (byte) (bytes[i] - bytes[i - 1]);
		}
		return distinct(steps) + 1;
	}

	/**
	 * Whether {@code bytes} is the digest of a word of zxcvbn's dictionaries (as listed,
	 * which is lower case, and for its password list also capitalised; with or without
	 * the trailing newline of {@code echo word | sha256sum}) under the one algorithm of
	 * that length: about 250,000 digests, well under a second once at start-up.
	 */
	static boolean isDictionaryDigest(byte[] bytes) {
		String algorithm = switch (bytes.length) {
			case 16 -> "MD5";
			case 20 -> "SHA-1";
			case 32 -> "SHA-256";
			case 64 -> "SHA-512";
			default -> null;
		};
		if (algorithm == null) {
			return false;
		}
		MessageDigest digest = messageDigest(algorithm);
		for (Dictionary dictionary : dictionaries()) {
			boolean passwords = dictionary.getName().equals(StandardDictionaries.PASSWORDS);
			for (String word : dictionary.getFrequencies()) {
				if (matchesWithOrWithoutNewline(digest, word, bytes)
						|| (passwords && !word.isEmpty() && matchesWithOrWithoutNewline(digest,
								Character.toUpperCase(word.charAt(0)) + word.substring(1), bytes))) {
					return true;
				}
			}
		}
		return false;
	}

	private static boolean matchesWithOrWithoutNewline(MessageDigest digest, String word, byte[] expected) {
		return matches(digest, word, expected) || matches(digest, word + "\n", expected);
	}

	private static boolean matches(MessageDigest digest, String text, byte[] expected) {
		return MessageDigest.isEqual(digest.digest(text.getBytes(StandardCharsets.UTF_8)), expected);
	}

	private static MessageDigest messageDigest(String algorithm) {
		try {
			return MessageDigest.getInstance(algorithm);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java runtime has " + algorithm, ex);
		}
	}

	private static List<Dictionary> dictionaries() {
		try {
			return StandardDictionaries.loadAllDictionaries();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("zxcvbn's dictionaries are part of its jar", ex);
		}
	}

}
