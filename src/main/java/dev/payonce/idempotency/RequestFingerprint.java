package dev.payonce.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * SHA-256 over the HTTP method, the route and the canonical form of a validated request
 * (docs/design.md section 1). Two requests with the same idempotency key and different
 * fingerprints are a key reuse, answered 422.
 *
 * <p>
 * The canonical form is built from already validated, already normalised field values:
 * field order is irrelevant (fields are sorted by name), and each name and value is
 * length-prefixed so that no two different field maps encode to the same bytes. Callers
 * normalise spelling (upper-case currency, a default for an omitted optional field)
 * before calling {@link #of}.
 *
 * @param sha256Hex 64 lower-case hexadecimal characters
 */
public record RequestFingerprint(String sha256Hex) {

	private static final Pattern WELL_FORMED = Pattern.compile("[0-9a-f]{64}");

	/**
	 * Checks the format.
	 * @throws IllegalArgumentException if {@code sha256Hex} is not 64 lower-case hex
	 * digits
	 */
	public RequestFingerprint {
		if (!isWellFormed(sha256Hex)) {
			throw new IllegalArgumentException("Request fingerprint must be 64 lower-case hex digits");
		}
	}

	/**
	 * Fingerprints one request.
	 * @param method the HTTP method, for example {@code POST}
	 * @param route the route template, for example {@code /payments}
	 * @param fields every business field by name, each in its canonical spelling
	 * @return the fingerprint
	 */
	public static RequestFingerprint of(String method, String route, Map<String, String> fields) {
		StringBuilder canonical = new StringBuilder();
		append(canonical, method);
		append(canonical, route);
		new TreeMap<>(fields).forEach((name, value) -> {
			append(canonical, name);
			append(canonical, value);
		});
		return new RequestFingerprint(HexFormat.of().formatHex(sha256(canonical.toString())));
	}

	private static void append(StringBuilder canonical, String part) {
		canonical.append(part.length()).append(':').append(part).append('\n');
	}

	private static byte[] sha256(String text) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required of every Java platform", ex);
		}
	}

	/**
	 * Whether {@code value} is 64 lower-case hex digits.
	 * @param value the candidate
	 * @return {@code true} if it is a well-formed fingerprint
	 */
	static boolean isWellFormed(String value) {
		return WELL_FORMED.matcher(value).matches();
	}

}
