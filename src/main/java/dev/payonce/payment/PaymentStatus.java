package dev.payonce.payment;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * Where a payment stands (docs/design.md section 2). {@code PENDING} and
 * {@code AUTHORIZED} (a manual payment, section 15) may change; the others are final.
 */
@Schema(enumAsRef = true,
		description = "PENDING and AUTHORIZED may still change; SUCCEEDED, DECLINED, FAILED and VOIDED are final. "
				+ "New values may appear: treat an unknown one as not final.")
public enum PaymentStatus {

	/** Claimed; the provider has not answered yet, or its answer is unknown. */
	PENDING,

	/**
	 * The provider authorized a manual payment and holds the money until captures take it
	 * or a void releases it (docs/design.md section 15). Not final.
	 */
	AUTHORIZED,

	/** The provider approved the charge. */
	SUCCEEDED,

	/** The provider declined the charge. */
	DECLINED,

	/** Reconciliation gave up: the provider has no record of a charge. */
	FAILED,

	/**
	 * A manual payment whose authorization a void released (docs/design.md section 15);
	 * what captures took before stays captured.
	 */
	VOIDED

}
