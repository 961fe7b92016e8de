package dev.payonce.payment;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * Where a payment stands (docs/design.md section 2). {@code PENDING} is the only status
 * that may change; the others are final.
 */
@Schema(enumAsRef = true, description = "PENDING may still change; SUCCEEDED, DECLINED and FAILED are final. "
		+ "New values may appear: treat an unknown one as not final.")
public enum PaymentStatus {

	/** Claimed; the provider has not answered yet, or its answer is unknown. */
	PENDING,

	/** The provider approved the charge. */
	SUCCEEDED,

	/** The provider declined the charge. */
	DECLINED,

	/** Reconciliation gave up: the provider has no record of a charge. */
	FAILED

}
