package dev.payonce.event;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.EmptyWebhookSecretException;
import com.standardwebhooks.exceptions.WebhookSigningException;

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com, "Signature scheme"):
 * {@code webhook-signature} holds one {@code v1,<base64 HMAC-SHA256>} over
 * {@code id.timestamp.body} per active secret, separated by spaces, so a receiver
 * verifies with either secret while one rotates. Signed by the specification's own Java
 * library ({@code com.standardwebhooks:standardwebhooks}), never by hand-written HMAC
 * code. Secrets are {@code whsec_} and the base64 of 32 random bytes.
 */
final class Signatures {

	private static final SecureRandom RANDOM = new SecureRandom();

	private Signatures() {
	}

	/**
	 * A new signing secret.
	 * @return {@code whsec_} and 32 random bytes in base64
	 */
	static String newSecret() {
		byte[] key = new byte[32];
		RANDOM.nextBytes(key);
		return Webhook.SECRET_PREFIX + Base64.getEncoder().encodeToString(key);
	}

	/**
	 * The {@code webhook-signature} value.
	 * @param id the {@code webhook-id} (the event id)
	 * @param timestamp the {@code webhook-timestamp}, seconds since the epoch
	 * @param body the exact bytes sent, as UTF-8 text
	 * @param secrets the active secrets, current first
	 * @return the signatures, space separated
	 */
	static String sign(String id, long timestamp, String body, List<String> secrets) {
		StringBuilder signatures = new StringBuilder();
		for (String secret : secrets) {
			try {
				signatures.append(signatures.isEmpty() ? "" : " ")
					.append(new Webhook(secret).sign(id, timestamp, body));
			}
			catch (WebhookSigningException | EmptyWebhookSecretException ex) {
				throw new IllegalStateException("A stored signing secret cannot sign", ex);
			}
		}
		return signatures.toString();
	}

}
