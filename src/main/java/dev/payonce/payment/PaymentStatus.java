package dev.payonce.payment;

/**
 * Where a payment stands (docs/design.md section 2). {@code PENDING} is the only status
 * that may change; the others are final.
 */
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
