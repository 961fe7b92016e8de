package dev.payonce.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * The digest of an idempotency key that log lines carry instead of the key
 * (docs/operations.md): HMAC-SHA256, keyed with a server secret, over the key's scope
 * (for payments the client id) and the key. Without the secret nobody can test guesses of
 * a key against a log line, and the same key of two clients gives two unrelated digests,
 * so lines never link across tenants.
 *
 * <p>
 * The secret is {@code payonce.idempotency.key-digest.secret}; without one a random
 * secret is drawn at start-up, valid for this process only. Thread-safe.
 */
@Component
public class KeyDigests {

	private static final Logger log = LoggerFactory.getLogger(KeyDigests.class);

	private static final String HMAC = "HmacSHA256";

	/**
	 * Initialised once; each digest works on a clone, because a {@link Mac} is not
	 * thread-safe and looking one up per call costs more than the HMAC.
	 */
	private final Mac prototype;

	KeyDigests(KeyDigestProperties properties) {
		byte[] key;
		if (properties.secret() != null) {
			key = properties.secret().getBytes(StandardCharsets.UTF_8);
		}
		else {
			key = new byte[32];
			new SecureRandom().nextBytes(key);
			log.warn("payonce.idempotency.key-digest.secret is not set: idempotency-key digests in logs use a random "
					+ "secret of this process and correlate only until it stops, and never across instances");
		}
		try {
			this.prototype = Mac.getInstance(HMAC);
			this.prototype.init(new SecretKeySpec(key, HMAC));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("HmacSHA256 is required of every Java platform", ex);
		}
	}

	/**
	 * The digest a log line may carry for a key.
	 * @param scope who owns the key (for payments, the client id); never empty
	 * @param key the idempotency key
	 * @return the first 16 hex digits (64 bits) of HMAC-SHA256(secret, scope LF key)
	 */
	public String digest(String scope, IdempotencyKey key) {
		try {
			Mac mac = (Mac) this.prototype.clone();
			// A line feed cannot occur in a scope or a key, so no two pairs give one
			// input.
			byte[] hmac = mac.doFinal((scope + "\n" + key.value()).getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(hmac, 0, 8);
		}
		catch (CloneNotSupportedException ex) {
			throw new IllegalStateException("The JDK's HmacSHA256 can be cloned", ex);
		}
	}

}
