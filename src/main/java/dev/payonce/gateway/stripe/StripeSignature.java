package dev.payonce.gateway.stripe;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A {@code Stripe-Signature} header, read one way for both the signature and the
 * timestamp check (docs/design.md section 10).
 *
 * <p>
 * Stripe's format (https://docs.stripe.com/webhooks#verify-manually): comma-separated
 * {@code key=value} items; {@code t} the timestamp in seconds since the epoch, {@code v1}
 * an HMAC-SHA256, in lowercase hex, of {@code "<t>.<raw body>"} under the endpoint's
 * signing secret, more than one {@code v1} while a secret is being rolled, and other
 * schemes ({@code v0}, in test mode) to be ignored. stripe-java's
 * {@code Webhook.Signature} reads it the same way (items split at {@code ","}, key and
 * value at the first {@code "="}, keys compared exactly), but takes the first item whose
 * key is exactly {@code t}; a second reader that trimmed keys found another one, so a
 * header {@code t =<now>,t=<later>,v1=<signature over later>} passed the freshness check
 * with one timestamp and the signature with the other. This reader therefore accepts only
 * the strict form Stripe sends, so any header it accepts has one meaning:
 * <ul>
 * <li>items are non-empty; a key is lowercase letters and digits, starting with a letter,
 * with no whitespace around it or its value;</li>
 * <li>exactly one {@code t}: 1 to 18 decimal digits, no sign, no leading zero, above
 * zero;</li>
 * <li>at least one {@code v1}, each 64 lowercase hex digits; at most {@value #MAX_ITEMS}
 * items in all;</li>
 * <li>other keys ({@code v0}) are well-formed and ignored.</li>
 * </ul>
 * Anything else is refused ({@link #parse} is empty) and answered
 * {@code 400 webhook-signature-invalid}, exactly like a signature that does not match.
 *
 * @param timestamp the one {@code t}, seconds since the epoch, above zero
 * @param signatures the {@code v1} signatures, at least one, each 32 bytes
 */
record StripeSignature(long timestamp, List<byte[]> signatures) {

	/** At most this many items: a header of Stripe's has two to four. */
	static final int MAX_ITEMS = 16;

	private static final Pattern KEY = Pattern.compile("[a-z][a-z0-9]{0,15}");

	private static final Pattern TIMESTAMP = Pattern.compile("[1-9][0-9]{0,17}");

	private static final Pattern V1 = Pattern.compile("[0-9a-f]{64}");

	/** A value of another scheme: no whitespace, comma or equals sign. */
	private static final Pattern OTHER_VALUE = Pattern.compile("[\\x21-\\x2B\\x2D-\\x3C\\x3E-\\x7E]{1,512}");

	StripeSignature {
		if (timestamp <= 0) {
			throw new IllegalArgumentException("A Stripe-Signature timestamp is above zero, not " + timestamp);
		}
		if (signatures.isEmpty()) {
			throw new IllegalArgumentException("A Stripe-Signature carries at least one v1 signature");
		}
		signatures = List.copyOf(signatures);
	}

	/**
	 * Reads a header in the strict form described above.
	 * @param header the one {@code Stripe-Signature} header's value
	 * @return the signature, or empty if the header is not in that form
	 */
	static Optional<StripeSignature> parse(String header) {
		String[] items = header.split(",", -1);
		if (items.length > MAX_ITEMS) {
			return Optional.empty();
		}
		Long timestamp = null;
		List<byte[]> signatures = new ArrayList<>();
		for (String item : items) {
			int equals = item.indexOf('=');
			if (equals < 0) {
				return Optional.empty();
			}
			String key = item.substring(0, equals);
			String value = item.substring(equals + 1);
			if (!KEY.matcher(key).matches()) {
				return Optional.empty();
			}
			switch (key) {
				case "t" -> {
					if (timestamp != null || !TIMESTAMP.matcher(value).matches()) {
						return Optional.empty();
					}
					timestamp = Long.parseLong(value);
				}
				case "v1" -> {
					if (!V1.matcher(value).matches()) {
						return Optional.empty();
					}
					signatures.add(HexFormat.of().parseHex(value));
				}
				default -> {
					if (!OTHER_VALUE.matcher(value).matches()) {
						return Optional.empty();
					}
				}
			}
		}
		if (timestamp == null || signatures.isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(new StripeSignature(timestamp, signatures));
	}

	/**
	 * Whether the timestamp is within the tolerance of now, in both directions:
	 * stripe-java refuses only one too old, but a delivery stamped in the future could
	 * otherwise be replayed until then.
	 * @param now the current time
	 * @param tolerance the largest difference accepted
	 * @return true if {@code |now - t| <= tolerance}
	 */
	boolean isFresh(Instant now, Duration tolerance) {
		long difference = Math.abs(now.getEpochSecond() - this.timestamp);
		return difference <= tolerance.toSeconds();
	}

	/**
	 * Whether one of the {@code v1} signatures is the HMAC-SHA256 of {@code "<t>.<body>"}
	 * under the secret, over the raw bytes of the body as received, compared in constant
	 * time.
	 * @param body the request body, exactly as received
	 * @param secret the endpoint's signing secret
	 * @return true if a signature matches
	 */
	boolean signs(byte[] body, String secret) {
		byte[] expected;
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
			mac.update((this.timestamp + ".").getBytes(StandardCharsets.US_ASCII));
			expected = mac.doFinal(body);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("HmacSHA256 is required of every Java platform", ex);
		}
		boolean found = false;
		for (byte[] signature : this.signatures) {
			// No early exit: every signature is compared.
			found |= MessageDigest.isEqual(expected, signature);
		}
		return found;
	}

}
