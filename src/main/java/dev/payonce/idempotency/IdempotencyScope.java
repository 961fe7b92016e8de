package dev.payonce.idempotency;

import java.util.regex.Pattern;

/**
 * Whose idempotency keys these are: the engine's own tenant scope, so that the engine
 * depends on no module that knows about callers (docs/design.md section 1). Keys are
 * unique per scope, never globally. The payments API uses the calling client's id; a
 * provider's webhook events use {@code webhook:<provider>}, which no client id can spell.
 *
 * @param value 1 to 64 characters of letters, digits, {@code _}, {@code -} and {@code :}
 */
public record IdempotencyScope(String value) {

	private static final Pattern WELL_FORMED = Pattern.compile("[A-Za-z0-9_:-]{1,64}");

	/**
	 * Checks the format.
	 * @throws IllegalArgumentException if {@code value} is not 1 to 64 of
	 * {@code [A-Za-z0-9_:-]}
	 */
	public IdempotencyScope {
		if (!isWellFormed(value)) {
			throw new IllegalArgumentException("Idempotency scope must be 1-64 characters of [A-Za-z0-9_:-]");
		}
	}

	@Override
	public String toString() {
		return this.value;
	}

	/**
	 * Whether {@code value} is 1 to 64 of {@code [A-Za-z0-9_:-]}.
	 * @param value the candidate
	 * @return {@code true} if it is a well-formed scope
	 */
	static boolean isWellFormed(String value) {
		return WELL_FORMED.matcher(value).matches();
	}

}
