package dev.payonce.history;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.jspecify.annotations.Nullable;

/**
 * One client operation of a history, as the client saw it: invoked on an idempotency key,
 * then completed with one of three kinds of answer (the vocabulary of Jepsen's
 * histories).
 *
 * @param index the order in which operations completed, from 0
 * @param key the idempotency key the operation was sent with
 * @param type what the client learned
 * @param status the HTTP status, or 0 when no answer came
 * @param bodyDigest SHA-256 (hex) of the answer's body, or {@code null} when no answer
 * came
 */
public record Operation(long index, String key, Type type, int status, @Nullable String bodyDigest) {

	public Operation {
		if (index < 0) {
			throw new IllegalArgumentException("an operation's index must not be negative: " + index);
		}
		if (key == null || key.isEmpty()) {
			throw new IllegalArgumentException("an operation needs its idempotency key");
		}
		if (type == null) {
			throw new IllegalArgumentException("an operation needs its type");
		}
		if (type != Type.INFO && bodyDigest == null) {
			throw new IllegalArgumentException("a " + type + " operation carries its body's digest");
		}
	}

	/**
	 * The SHA-256 digest of a body, in hex.
	 * @param body an answer's body
	 * @return its digest
	 */
	public static String digest(String body) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Whether the answer is final for the key: a success or a definite refusal. */
	boolean isFinal() {
		return this.type != Type.INFO;
	}

	/** What the client learned from an operation. */
	public enum Type {

		/**
		 * A final success: the operation happened (for a payment, {@code 201}; for a
		 * void, {@code 200}).
		 */
		OK,

		/**
		 * A final, definite refusal: the operation did not happen and never will under
		 * this key (for a payment, a stored {@code 402} declined or failed).
		 */
		FAIL,

		/**
		 * Unknown: a timeout, a reset connection, {@code 503} or {@code 409} in progress;
		 * it may or may not have happened. Also a refusal that binds nothing to the key
		 * (a refund over what is refundable: {@code 409}, not stored, so a later request
		 * with the key may still succeed): the request did nothing, but the key's outcome
		 * is not settled by it.
		 */
		INFO;

		/**
		 * What an HTTP answer of Payonce's payments, refunds, captures and voids tells
		 * its client, by its status: {@code 201} a success ({@code 200} for a void),
		 * {@code 402} a definite refusal (a stored decline or failure, docs/design.md
		 * section 2), anything else unknown ({@code 409} in progress, {@code 503}, a
		 * refusal stored under no key, {@code 0} for no answer). Every soak classifies
		 * its answers by this rule, in the JVM or from a file.
		 * @param status the HTTP status, or 0 when no answer came
		 * @return the type of the operation
		 */
		public static Type of(int status) {
			return switch (status) {
				case 200, 201 -> OK;
				case 402 -> FAIL;
				default -> INFO;
			};
		}

	}

}
