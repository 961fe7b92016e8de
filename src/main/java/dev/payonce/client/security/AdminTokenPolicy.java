package dev.payonce.client.security;

import java.util.Optional;
import java.util.regex.Pattern;

import com.nulabinc.zxcvbn.Zxcvbn;
import org.jspecify.annotations.Nullable;

import dev.payonce.client.SecurityProperties;

/**
 * What an admin token must be before Payonce starts with it (issue 15, item 6). Each rule
 * answers a real failure: a token with surrounding whitespace (a secret file's trailing
 * newline) can never be sent in a header, so the admin API would refuse every call; a
 * token shaped like an API key ({@code sk_...}) is read as one; a short or guessable
 * token can be guessed. Messages name the rule, never the token.
 *
 * <p>
 * Strength is zxcvbn's estimate (Dropbox's password-strength estimator, in the nulab
 * port): it counts dictionary words, repeats, sequences and keyboard patterns, so
 * {@code aaaa...}, {@code 0123...} or {@code Passw0rd!Passw0rd!...} fail however long
 * they are, while 32 random characters pass with room to spare.
 */
final class AdminTokenPolicy {

	/**
	 * The fewest guesses zxcvbn must estimate, as a power of ten: 10^24, about 80 bits.
	 * 32 random base64 or hex characters estimate at 10^32; a sentence of six common
	 * words at about 10^26.
	 */
	static final double MIN_GUESSES_LOG10 = 24;

	/**
	 * RFC 6750's b64token: what a bearer token may hold, so that the header always
	 * carries it unchanged.
	 */
	private static final Pattern B64TOKEN = Pattern.compile("[A-Za-z0-9._~+/-]+=*");

	private static final String NAME = "payonce.security.admin-token";

	private AdminTokenPolicy() {
	}

	/**
	 * The first rule the token breaks.
	 * @param token the configured token, {@code null} if none
	 * @param required whether a token must be set (everywhere but the {@code local}
	 * profile)
	 * @return a message that starts with the setting's name and says what to change, or
	 * empty if the token is acceptable
	 */
	static Optional<String> violation(@Nullable String token, boolean required) {
		if (token == null || token.isEmpty()) {
			return required
					? Optional.of(NAME + " is required outside the local profile "
							+ "(PAYONCE_SECURITY_ADMIN_TOKEN); generate one with: openssl rand -base64 32")
					: Optional.empty();
		}
		if (!token.strip().equals(token)) {
			return Optional.of(NAME + " has leading or trailing whitespace (a secret read from a file often ends in "
					+ "a newline): remove it. An Authorization header can never carry it, so every admin call would "
					+ "be refused.");
		}
		if (token.regionMatches(true, 0, "sk_", 0, 3)) {
			return Optional.of(NAME + " starts with sk_ like an API key and would be read as one: choose a token "
					+ "that does not look like an API key.");
		}
		if (!B64TOKEN.matcher(token).matches()) {
			return Optional.of(NAME + " may hold only letters, digits and - . _ ~ + / (with = at the end), "
					+ "as a bearer token (RFC 6750)");
		}
		if (token.length() < SecurityProperties.MIN_ADMIN_TOKEN_LENGTH) {
			return Optional.of(NAME + " must be at least " + SecurityProperties.MIN_ADMIN_TOKEN_LENGTH
					+ " characters, got " + token.length());
		}
		double guessesLog10 = new Zxcvbn().measure(token).getGuessesLog10();
		if (guessesLog10 < MIN_GUESSES_LOG10) {
			return Optional.of(NAME + " is too easy to guess (repeats, sequences or words; estimated 10^"
					+ Math.round(Math.floor(guessesLog10)) + " guesses, at least 10^" + Math.round(MIN_GUESSES_LOG10)
					+ " required): use random characters, for example: openssl rand -base64 32");
		}
		return Optional.empty();
	}

}
