package dev.payonce.capture;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * Where a void stands (docs/design.md section 15). {@code PENDING} is the only status
 * that may change; the others are final. Its own type, not {@link CaptureStatus}: a void
 * takes no money, and what each final status leaves of the authorization differs from a
 * capture's.
 */
@Schema(enumAsRef = true, description = "PENDING may still change; SUCCEEDED, DECLINED and FAILED are final. "
		+ "New values may appear: treat an unknown one as not final.")
public enum VoidStatus {

	/**
	 * Claimed, holding the payment; the provider has not answered yet, or its answer is
	 * unknown. No capture is claimed meanwhile.
	 */
	PENDING,

	/**
	 * The provider released the authorization: the payment is {@code VOIDED} and nothing
	 * more can be captured (what earlier captures took stays captured).
	 */
	SUCCEEDED,

	/**
	 * The provider declined the void; the authorization is as it was and the payment
	 * still {@code AUTHORIZED}.
	 */
	DECLINED,

	/**
	 * Reconciliation gave up: the provider has no record of the void; the payment is let
	 * go, still {@code AUTHORIZED}.
	 */
	FAILED

}
