package dev.payonce.web;

import java.util.Optional;
import java.util.UUID;

/**
 * Ids in paths and cursors: only the canonical spelling of a UUID (lower case,
 * hyphenated, as {@link UUID#toString()} writes it) names a resource, because
 * {@link UUID#fromString(String)} also accepts other spellings of the same value, which
 * would make one resource answer under several URLs.
 */
public final class CanonicalIds {

	private CanonicalIds() {
	}

	/**
	 * The UUID a path segment or cursor spells canonically.
	 * @param value the text as received
	 * @return the UUID, or empty for anything but its canonical spelling
	 */
	public static Optional<UUID> parse(String value) {
		try {
			UUID uuid = UUID.fromString(value);
			return uuid.toString().equals(value) ? Optional.of(uuid) : Optional.empty();
		}
		catch (IllegalArgumentException ex) {
			return Optional.empty();
		}
	}

}
