package dev.payonce.web;

import java.net.URI;

/**
 * The stable type URIs of Payonce's RFC 9457 problems. A type ends in its slug;
 * docs/api.md lists every one. Types are identifiers: clients match on them, so a slug
 * never changes.
 */
public final class ProblemTypes {

	/** Every problem type starts with this. */
	public static final String BASE = "https://payonce.dev/problems/";

	private ProblemTypes() {
	}

	/**
	 * The type URI of a slug.
	 * @param slug for example {@code idempotency-key-reused}
	 * @return {@link #BASE} followed by the slug
	 */
	public static URI of(String slug) {
		return URI.create(BASE + slug);
	}

}
